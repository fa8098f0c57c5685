/**
 * The command line split into option values and positionals, every parse error one line with the next step.
 * It reads what node:util's parseArgs reads in strict mode (`--name value`, `--name=value`, `-x value`,
 * `-xVALUE`, switch groups `-ch`, `--` ending the options), written here because loading node:util costs
 * every start a tenth of its time in Deno's Node compatibility code.
 */
import { closestOption, withAliases } from "./arg_habits.ts";
import { KNOWN_OPTIONS, OPTIONS } from "./option_table.ts";
import { UsageError } from "./usage_error.ts";

type Table = typeof OPTIONS;
type Name = keyof Table;
type Value<N extends Name> = Table[N]["type"] extends "string" ? string : boolean;

/** What `parseStrict` returns: each option's raw value (undefined when not given) and the positionals. */
export interface ParsedArgv {
  values: { [N in Name]?: Value<N> };
  positionals: string[];
}

/** Every short name to its option's long name. */
const SHORT: Record<string, Name | undefined> = Object.fromEntries(
  (Object.keys(OPTIONS) as Name[]).flatMap((name) => {
    const option = OPTIONS[name];
    return "short" in option ? [[option.short, name]] : [];
  }),
);

/** `argv` parsed strictly against the option table; bad usage throws a one-line `UsageError`. */
export function parseStrict(argv: string[]): ParsedArgv {
  const args = withOptionalResumeId(withAliases(argv));
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) i = readLong(arg, args, i, values);
    else if (arg.length > 1 && arg.startsWith("-")) i = readShort(arg, args, i, values);
    else positionals.push(arg);
  }
  return { values: values as ParsedArgv["values"], positionals };
}

/** `--name`, `--name=value` or `--name value` at `args[i]`; returns the index of the last argument used. */
function readLong(arg: string, args: string[], i: number, values: Record<string, string | boolean>): number {
  const equals = arg.indexOf("=");
  const name = arg.slice(2, equals < 0 ? undefined : equals);
  if (!Object.hasOwn(OPTIONS, name)) throw unknown(arg.slice(0, equals < 0 ? undefined : equals));
  const key = name as Name;
  if (equals >= 0) {
    if (OPTIONS[key].type === "boolean") {
      throw new UsageError(`option '${both(key)}' does not take an argument`);
    }
    values[key] = arg.slice(equals + 1);
    return i;
  }
  return take(key, `--${name}`, args, i, values);
}

/** `-x`, `-xVALUE`, `-x value` or a group of switches `-abc` (the last may take a value). */
function readShort(arg: string, args: string[], i: number, values: Record<string, string | boolean>): number {
  for (let at = 1; at < arg.length; at++) {
    const key = SHORT[arg[at]];
    if (key === undefined) throw unknown(`-${arg[at]}`);
    if (OPTIONS[key].type === "boolean") {
      values[key] = true;
      continue;
    }
    if (at < arg.length - 1) {
      values[key] = arg.slice(at + 1);
      return i;
    }
    return take(key, `-${arg[at]}`, args, i, values);
  }
  return i;
}

/** A switch set, or a string option's value taken from the next argument (`typed` as the user wrote it). */
function take(key: Name, typed: string, args: string[], i: number, values: Record<string, string | boolean>) {
  if (OPTIONS[key].type === "boolean") {
    values[key] = true;
    return i;
  }
  const next = args[i + 1];
  if (next === undefined) throw new UsageError(`option '${both(key)}' needs a value`);
  if (next.length > 1 && next.startsWith("-")) {
    throw new UsageError(
      `option '${typed}' needs a value; for a value starting with '-', write --${key}=VALUE`,
    );
  }
  values[key] = next;
  return i + 1;
}

/** `-p, --print` (or `--model`): the option's names as the usage errors name it. */
function both(key: Name): string {
  const option = OPTIONS[key];
  return "short" in option ? `-${option.short}, --${key}` : `--${key}`;
}

function unknown(option: string): UsageError {
  const closest = closestOption(option, KNOWN_OPTIONS);
  return new UsageError(`unknown option '${option}'${closest ? `; did you mean ${closest}?` : ""}`);
}

/** `--resume`/`-r` without an id (last, or before another option) becomes `--resume=`: pick from a list. */
function withOptionalResumeId(argv: string[]): string[] {
  return argv.map((arg, i) => {
    const next = argv[i + 1];
    const bare = arg === "--resume" || arg === "-r";
    return bare && (next === undefined || next.startsWith("-")) ? "--resume=" : arg;
  });
}
