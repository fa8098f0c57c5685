/** The command line split into option values and positionals, every parse error one line with the next step. */
import { parseArgs } from "node:util";
import { closestOption, withAliases } from "./arg_habits.ts";
import { KNOWN_OPTIONS, OPTIONS } from "./option_table.ts";
import { UsageError } from "./usage_error.ts";

/** What `parseStrict` returns: each option's raw value (undefined when not given) and the positionals. */
export type ParsedArgv = ReturnType<typeof parseWithTable>;

/** node:util parseArgs in strict mode, its errors turned into one-line `UsageError`s. */
export function parseStrict(argv: string[]): ParsedArgv {
  try {
    return parseWithTable(withOptionalResumeId(withAliases(argv)));
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (!code?.startsWith("ERR_PARSE_ARGS_")) throw error;
    throw new UsageError(usageMessage(code, message));
  }
}

function parseWithTable(args: string[]) {
  return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
}

/** `--resume`/`-r` without an id (last, or before another option) becomes `--resume=`: pick from a list. */
function withOptionalResumeId(argv: string[]): string[] {
  return argv.map((arg, i) => {
    const next = argv[i + 1];
    const bare = arg === "--resume" || arg === "-r";
    return bare && (next === undefined || next.startsWith("-")) ? "--resume=" : arg;
  });
}

/** A parseArgs error message, reworded as one line with the next step. */
function usageMessage(code: string, message: string): string {
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const closest = closestOption(quoted, KNOWN_OPTIONS);
    return `unknown option '${quoted}'${closest ? `; did you mean ${closest}?` : ""}`;
  }
  const option = quoted.replace(/ <value>$/, "");
  if (message.includes("ambiguous")) {
    // parseArgs's own hint names the long form: "... use '--print=-XYZ' or '-p-XYZ'."
    const name = /'(--[^=']+)=/.exec(message)?.[1] ?? option;
    return `option '${option}' needs a value; for a value starting with '-', write ${name}=VALUE`;
  }
  if (message.includes("argument missing")) return `option '${option}' needs a value`;
  return message.split("\n")[0].replace(/^Option/, "option").replace(/\.$/, "");
}
