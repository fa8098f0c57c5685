/** The command line read into `CliArgs`: each option given sets its field, then the options are checked together. */
import type { ApproveMode, OutputFormat, RunSettings, SandboxMode } from "../config/settings.ts";
import { approveMode, duration, nonEmpty, oneOf, positiveInteger, toolList } from "./arg_values.ts";
import { type ParsedArgv, parseStrict } from "./strict_parse.ts";
import { UsageError } from "./usage_error.ts";

export type { ApproveMode, OutputFormat, SandboxMode };

/** The parsed command line; unset optional fields were not given. */
export interface CliArgs extends RunSettings {
  help: boolean;
  version: boolean;
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** `-c`: continue the latest session of this project. */
  continue?: boolean;
  /** `-r ID`: continue this session; "" (no id given) asks which. */
  resume?: string;
  /** `--fork` with `-r`/`-c`: continue a copy of that session, the original left as it is. */
  fork?: boolean;
  /** `--no-session`: save nothing. */
  noSession?: boolean;
  /** `--context-window N`: the model's window in tokens, overriding the table of known models. */
  contextWindow?: number;
  /** `--api`: checked against the wire names by the configuration (the same words as TERN_API). */
  api?: string;
  /** `--fallback PROVIDER[/MODEL]`, as given; main resolves it like /model does. */
  fallback?: string;
  /** Start the servers of the project's .mcp.json without asking (`--trust-project-mcp`). */
  trustProjectMcp?: boolean;
  /** Use everything the project supplies without asking (`--trust-project`). */
  trustProject?: boolean;
  /** Let web_fetch reach loopback, private and link-local addresses (`--allow-local-fetch`). */
  allowLocalFetch?: boolean;
  /** `--input-format stream-json`: user messages and approval answers as JSON lines on stdin (headless). */
  inputFormat?: "stream-json";
  /** `--approval-timeout`: how long an approval question waits for its answer on stdin, in milliseconds. */
  approvalTimeoutMs?: number;
  /** `tern "TASK"`: the REPL opens with TASK as its first message (as `claude "TASK"` does). */
  firstPrompt?: string;
  /** `--notify-command CMD`: run (bash -c) when the REPL needs you and the terminal is not focused. */
  notifyCommand?: string;
  /** `-w NAME`: work in tern's git worktree NAME (made on branch tern/NAME when new). */
  worktree?: string;
}

const OUTPUTS: readonly OutputFormat[] = ["text", "json", "stream-json"];
const INPUTS = ["text", "stream-json"] as const;
const SANDBOX_MODES: readonly SandboxMode[] = ["off", "auto", "required"];

type Values = ParsedArgv["values"];
type Setter<K extends keyof Values> = (args: CliArgs, value: NonNullable<Values[K]>) => void;

/** How each option, when given, sets its field; they run in this order, so the first bad value is the one named. */
const SETTERS: { [K in keyof Values]?: Setter<K> } = {
  print: (args, value) => {
    if (value.trim() === "") throw new UsageError('-p needs a task, e.g. tern -p "fix the failing test"');
    args.prompt = value;
  },
  "trust-project-mcp": (args) => args.trustProjectMcp = true,
  "trust-project": (args) => args.trustProject = true,
  "allow-local-fetch": (args) => args.allowLocalFetch = true,
  "notify-command": (args, value) => args.notifyCommand = nonEmpty("--notify-command", value),
  worktree: (args, value) => args.worktree = nonEmpty("--worktree", value),
  provider: (args, value) => args.provider = nonEmpty("--provider", value),
  model: (args, value) => args.model = nonEmpty("--model", value),
  "base-url": (args, value) => args.baseUrl = nonEmpty("--base-url", value),
  api: (args, value) => args.api = nonEmpty("--api", value),
  fallback: (args, value) => args.fallback = nonEmpty("--fallback", value),
  "require-tools": (args, value) => args.requireTools = toolList(value),
  "max-turns": (args, value) => args.maxTurns = positiveInteger("--max-turns", value),
  "token-budget": (args, value) => args.tokenBudget = positiveInteger("--token-budget", value),
  "time-limit": (args, value) => args.timeLimitMs = duration("--time-limit", value),
  "trust-project-env": (args) => args.trustProjectEnv = true,
  "context-window": (args, value) => args.contextWindow = positiveInteger("--context-window", value),
  continue: (args) => args.continue = true,
  resume: (args, value) => args.resume = value.trim(),
  "no-session": (args) => args.noSession = true,
  "input-format": (args, value) => {
    if (oneOf("--input-format", value, INPUTS) === "stream-json") args.inputFormat = "stream-json";
  },
  "approval-timeout": (args, value) => args.approvalTimeoutMs = duration("--approval-timeout", value),
};

/** Parses `argv` (without the program name); throws a `UsageError` with a one-line message on bad usage. */
export function parseCliArgs(argv: string[]): CliArgs {
  const { values, positionals } = parseStrict(argv);
  const args: CliArgs = {
    help: values.help ?? false,
    version: values.version ?? false,
    output: oneOf("--output", values.output, OUTPUTS) ?? "text",
    approve: approveMode(values.approve, values.mode),
    sandbox: oneOf("--sandbox", values.sandbox, SANDBOX_MODES) ?? "auto",
  };
  for (const name of Object.keys(SETTERS) as (keyof Values)[]) {
    const value = values[name];
    const set = SETTERS[name] as (args: CliArgs, value: string | boolean) => void;
    if (value !== undefined) set(args, value);
  }
  if (positionals.length > 0) args.firstPrompt = firstPrompt(positionals, args);
  checkSessionChoice(args, values.fork ?? false);
  checkFormats(args);
  return args;
}

/** `-c`, `-r` and `--fork`: one session chosen, and a fork only of a saved one into a saved one. */
function checkSessionChoice(args: CliArgs, fork: boolean): void {
  if (args.continue && args.resume !== undefined) {
    throw new UsageError("--continue and --resume both choose a session; give one of them");
  }
  if (!fork) return;
  if (!args.continue && args.resume === undefined) {
    throw new UsageError("--fork copies a saved session: name it with -r ID (or -c for the latest)");
  }
  if (args.noSession) throw new UsageError("--fork writes a new session, which --no-session forbids");
  args.fork = true;
}

/** `--input-format` and `--output`: JSON formats only for a headless task, stream-json input with JSON out. */
function checkFormats(args: CliArgs): void {
  if (args.inputFormat && args.output === "text") {
    throw new UsageError(
      "--input-format stream-json needs --output stream-json (every event) or --output json (the result)",
    );
  }
  if (args.inputFormat && args.prompt === "-") {
    throw new UsageError(
      "-p - reads the task from stdin, which --input-format stream-json reads as JSON lines",
    );
  }
  const headless = args.prompt !== undefined || args.inputFormat !== undefined;
  if (!args.help && !args.version && args.output !== "text" && !headless) {
    throw new UsageError(
      `--output ${args.output} needs a headless task: tern -p "TASK" --output ${args.output}`,
    );
  }
}

/** The options of `tern acp` (model, approval, sandbox, budgets); a task or an output format is bad usage. */
export function acpArgs(argv: string[]): CliArgs {
  const args = parseCliArgs(argv);
  const bad = args.prompt !== undefined || args.firstPrompt !== undefined
    ? "-p"
    : args.output !== "text"
    ? "--output"
    : args.inputFormat
    ? "--input-format"
    : args.continue || args.resume !== undefined
    ? "--continue/--resume"
    : args.worktree !== undefined
    ? "--worktree"
    : undefined;
  if (bad) {
    throw new UsageError(`tern acp takes its prompts and sessions from the editor; ${bad} does not apply`);
  }
  return args;
}

/** `tern "TASK"`: one word or one quoted task, for the REPL; with -p or stream-json input it is bad usage. */
function firstPrompt(positionals: string[], args: CliArgs): string {
  if (args.prompt !== undefined || args.inputFormat !== undefined) {
    const where = args.prompt !== undefined ? '-p takes the task: tern -p "TASK"' : "the tasks come on stdin";
    throw new UsageError(`unexpected argument '${positionals[0]}'; ${where}`);
  }
  if (positionals.length > 1) {
    throw new UsageError(`tern takes one task; quote it: tern "${positionals.join(" ")}"`);
  }
  if (positionals[0].trim() === "") {
    throw new UsageError('the task is empty; e.g. tern "fix the failing test"');
  }
  return positionals[0];
}
