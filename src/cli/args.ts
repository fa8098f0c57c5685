/** Command-line arguments: parsing, validation and the help text. */
import { parseArgs } from "node:util";
import {
  type ApproveMode,
  type OutputFormat,
  parseDuration,
  type RunSettings,
  type SandboxMode,
} from "../config/settings.ts";

export type { ApproveMode, OutputFormat, SandboxMode };

/** tern's version, printed by `--version`. */
export const VERSION = "0.1.0";

/** The parsed command line; unset optional fields were not given. */
export interface CliArgs extends RunSettings {
  help: boolean;
  version: boolean;
  provider?: string;
  model?: string;
  baseUrl?: string;
}

/** Bad usage: the caller prints `tern: <message>` and a hint to run `tern --help`, then exits 2. */
export class UsageError extends Error {
  /** The process exit code for bad usage. */
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The text printed by `tern --help`. */
export const HELP_TEXT = `tern ${VERSION}: a coding agent in your terminal, sandboxed to the current directory

Usage:
  tern [options]            open an interactive session in this directory
  tern -p "TASK" [options]  run one task headless: the answer to stdout, progress to stderr

Options:
  -p, --print TASK          run TASK without the interactive session; "-" reads TASK from stdin,
                            and input piped to tern is attached to TASK as context
      --output FORMAT       text (default), json (one object at the end) or stream-json
                            (one event a line); json and stream-json need -p
      --provider NAME       deepseek (default), openai, glm, kimi, qwen, openrouter, ollama, llamacpp
      --model NAME          the model to use (default: the provider's)
      --base-url URL        an OpenAI-compatible endpoint (http or https) instead of the provider's
      --approve MODE        ask (default): confirm edits, and commands that run unsandboxed or want
                            the network; edits: edits run, but protected paths (.git, .env, CI files)
                            and unsandboxed commands still ask; all: confirm nothing
      --sandbox MODE        auto (default): confine commands with bubblewrap when it is installed
                            (no network, writes only in the project); required: refuse commands
                            without it; off: run commands unconfined (they always ask)
      --max-turns N         stop after N model calls (exit 3)
      --token-budget N      stop after N tokens in total (exit 3)
      --time-limit DURATION stop after this much wall-clock time, e.g. 90s, 15m, 1h30m (exit 3)
  -h, --help                show this help
  -v, --version             show the version

Environment (also read from .env in the project root; real variables win):
  TERN_PROVIDER, TERN_MODEL, TERN_BASE_URL
                            defaults for --provider, --model, --base-url
  TERN_API_KEY              the key for any provider; overrides the provider's own variable:
                            DEEPSEEK_API_KEY, OPENAI_API_KEY, ZHIPUAI_API_KEY (glm),
                            MOONSHOT_API_KEY (kimi), DASHSCOPE_API_KEY (qwen), OPENROUTER_API_KEY
  With no key set, tern uses a local Ollama (port 11434) or llama.cpp (port 8080) server if one answers.

Exit codes:
  0 done, 1 error, 2 bad usage, 3 stopped early (budget or loop guard; partial answer), 130 cancelled
`;

const OPTIONS = {
  print: { type: "string", short: "p" },
  output: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  approve: { type: "string" },
  sandbox: { type: "string" },
  "max-turns": { type: "string" },
  "token-budget": { type: "string" },
  "time-limit": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

const OUTPUTS: readonly OutputFormat[] = ["text", "json", "stream-json"];
const APPROVE_MODES: readonly ApproveMode[] = ["ask", "edits", "all"];
const SANDBOX_MODES: readonly SandboxMode[] = ["off", "auto", "required"];

/** Parses `argv` (without the program name); throws a `UsageError` with a one-line message on bad usage. */
export function parseCliArgs(argv: string[]): CliArgs {
  const values = parseStrict(argv);
  const args: CliArgs = {
    help: values.help ?? false,
    version: values.version ?? false,
    output: oneOf("--output", values.output, OUTPUTS) ?? "text",
    approve: oneOf("--approve", values.approve, APPROVE_MODES) ?? "ask",
    sandbox: oneOf("--sandbox", values.sandbox, SANDBOX_MODES) ?? "auto",
  };
  if (values.print !== undefined) {
    if (values.print.trim() === "") {
      throw new UsageError('-p needs a task, e.g. tern -p "fix the failing test"');
    }
    args.prompt = values.print;
  }
  if (values.provider !== undefined) args.provider = nonEmpty("--provider", values.provider);
  if (values.model !== undefined) args.model = nonEmpty("--model", values.model);
  if (values["base-url"] !== undefined) args.baseUrl = nonEmpty("--base-url", values["base-url"]);
  if (values["max-turns"] !== undefined) args.maxTurns = positiveInteger("--max-turns", values["max-turns"]);
  if (values["token-budget"] !== undefined) {
    args.tokenBudget = positiveInteger("--token-budget", values["token-budget"]);
  }
  if (values["time-limit"] !== undefined) args.timeLimitMs = duration("--time-limit", values["time-limit"]);
  if (!args.help && !args.version && args.output !== "text" && args.prompt === undefined) {
    throw new UsageError(
      `--output ${args.output} needs a headless task: tern -p "TASK" --output ${args.output}`,
    );
  }
  return args;
}

/** node:util parseArgs in strict mode, its errors turned into one-line `UsageError`s. */
function parseStrict(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (!code?.startsWith("ERR_PARSE_ARGS_")) throw error;
    throw new UsageError(usageMessage(code, message));
  }
}

/** A parseArgs error message, reworded as one line with the next step. */
function usageMessage(code: string, message: string): string {
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option '${quoted}'`;
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    return `unexpected argument '${quoted}'; to run a task, quote it: tern -p "TASK"`;
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

/** `value` when it is one of `allowed`; undefined when absent; a `UsageError` otherwise. */
function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")} (got '${value}')`);
}

/** `value` trimmed; a `UsageError` when that leaves nothing. */
function nonEmpty(flag: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === "") throw new UsageError(`${flag} needs a value`);
  return trimmed;
}

/** `value` as a duration in milliseconds ("90", "90s", "15m", "1h30m"); a `UsageError` otherwise. */
function duration(flag: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) {
    throw new UsageError(`${flag} must be a duration such as 90s, 15m or 1h30m (got '${value}')`);
  }
  return ms;
}

/** `value` as a positive whole number; a `UsageError` for anything else (0, -1, 1.5, 1e3, abc). */
function positiveInteger(flag: string, value: string): number {
  const trimmed = value.trim();
  const number = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(number) || number <= 0) {
    throw new UsageError(`${flag} must be a positive whole number (got '${value}')`);
  }
  return number;
}
