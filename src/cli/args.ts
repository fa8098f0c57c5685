/** Command-line arguments: parsing, validation and the help text. */
import { parseArgs } from "node:util";
import { closestOption, withAliases } from "./arg_habits.ts";
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
  tern "TASK" [options]     the same, with TASK as its first message
  tern -p "TASK" [options]  run one task headless: the answer to stdout, progress to stderr
  tern acp [options]        serve editors over the Agent Client Protocol on stdin/stdout

Options:
  -p, --print TASK          run TASK without the interactive session; "-" reads TASK from stdin,
                            and input piped to tern is attached to TASK as context
      --output FORMAT       text (default), json (one object at the end) or stream-json
                            (one event a line, docs/stream-json.md); json and stream-json need
                            -p or --input-format stream-json (--output-format is the same)
      --input-format FORMAT text (default) or stream-json: stdin carries user messages and approval
                            answers as JSON lines, each message a turn of the same session, until
                            EOF; needs --output stream-json or json
      --approval-timeout DURATION
                            with --input-format stream-json: how long an approval question waits
                            for its answer on stdin before --approve decides (default 60s)
      --provider NAME       deepseek (default), openai, anthropic, gemini, groq, mistral, xai, glm,
                            kimi, qwen, openrouter, ollama, llamacpp, lmstudio, vllm
      --model NAME          the model to use (default: the provider's)
      --base-url URL        an endpoint (http or https) instead of the provider's
      --api WIRE            the wire format spoken there: chat (OpenAI-compatible chat completions),
                            responses (OpenAI Responses) or anthropic (Anthropic Messages);
                            default: the provider's
      --fallback PROVIDER[/MODEL]
                            when retries are exhausted on 429, 5xx or an overloaded server, that
                            model call continues on this provider and model (and says so)
      --require-tools LIST  comma-separated tools the model must call, in order, each until one
                            call of it succeeds (e.g. list_dir,read_file); then the model chooses
      --approve MODE        ask (default): confirm edits, and commands that run unsandboxed, want
                            the network or delete work (git clean -f, rm -r, ...); edits: edits run,
                            but protected paths (.git, .env, CI files) and those commands still ask;
                            all: confirm nothing; plan: plan mode (below)
      --mode MODE           the same as --approve; --mode plan starts in plan mode: only read-only
                            tools run, and the model ends by presenting a plan
      --sandbox MODE        auto (default): confine commands with bubblewrap when it is installed
                            (no network, writes only in the project); required: refuse commands
                            without it; off: run commands unconfined (they always ask)
      --max-turns N         stop after N model calls (exit 3)
      --token-budget N      stop after N tokens in total (exit 3)
      --time-limit DURATION stop after this much wall-clock time, e.g. 90s, 15m, 1h30m (exit 3)
      --trust-project       use what this project supplies without asking: its .env endpoint,
                            .mcp.json servers, .tern/settings.json allow rules, AGENTS.md/CLAUDE.md
                            as instructions, skills (otherwise the REPL asks once; -p goes on
                            without them)
      --trust-project-env   only let the project's .env choose the endpoint your own API key is sent to
  -c, --continue            continue the latest session of this project (with -p too)
  -r, --resume [ID|NAME]    continue session ID (or the one named NAME, or an id's prefix); without
                            one, pick from a list
      --fork                with -c or -r: continue a copy of that session, leaving it as it is
  -w, --worktree NAME       work in a git worktree of this repository on branch tern/NAME (made from
                            HEAD in .tern/local/worktrees/NAME the first time; its own sessions)
      --no-session          save nothing of this run under .tern/local/sessions/
      --context-window N    the model's context window in tokens (default: known models, else the
                            provider's); past about 80% older turns are summarised
      --trust-project-mcp   only start the MCP servers of this project's .mcp.json without asking
      --allow-local-fetch   let web_fetch reach loopback, private and link-local addresses
      --notify-command CMD  run CMD (bash -c) when the REPL waits for you and its terminal is not
                            focused; TERN_NOTIFY_TYPE and TERN_NOTIFY_MESSAGE say why
  -h, --help                show this help
  -v, --version             show the version

Environment (also read from .env in the project root; real variables win):
  TERN_PROVIDER, TERN_MODEL, TERN_BASE_URL, TERN_API
                            defaults for --provider, --model, --base-url, --api
  TERN_FIRST_BYTE_TIMEOUT   longest wait for a model's first byte, e.g. 5m (default 120s)
  TERN_NOTIFY, TERN_NOTIFY_AFTER
                            the REPL's nudge when it needs you and is not focused: bell, osc9,
                            osc777 or off (default bell,osc9); after turns of at least 30s
  TERN_API_KEY              the key for any provider; overrides the provider's own variable:
                            DEEPSEEK_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY,
                            GROQ_API_KEY, MISTRAL_API_KEY, XAI_API_KEY, ZHIPUAI_API_KEY (glm),
                            MOONSHOT_API_KEY (kimi), DASHSCOPE_API_KEY (qwen), OPENROUTER_API_KEY
  With no key set, tern uses a local Ollama (port 11434), llama.cpp (8080), LM Studio (1234) or vLLM
  (8000) server if one answers.

Sessions (saved as they happen in .tern/local/sessions/, inside the project):
  tern sessions             list this project's sessions, newest first
  tern sessions prune [--keep N]
                            delete all but the N newest (default 20)
  tern sessions export ID|NAME --format md|html|jsonl
                            print a session: conversation, reasoning, tool calls, results, diffs

Worktrees (git worktrees tern made with -w, /worktree or the task tool's isolation):
  tern worktrees            list them: branch, changed files, last session
  tern worktrees remove NAME [--force]
                            remove one (refused with uncommitted changes unless --force; the
                            branch is kept); never one tern did not make

Your own settings (.tern/local/settings.json: hooks, rules; sealed by tern, so a git pull cannot add any):
  tern config sign [--yes]  after editing it by hand: shows what it grants and seals it

Exit codes:
  0 done, 1 error, 2 bad usage, 3 stopped early (budget or loop guard; partial answer), 130 cancelled
`;

const OPTIONS = {
  print: { type: "string", short: "p" },
  output: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  api: { type: "string" },
  "require-tools": { type: "string" },
  fallback: { type: "string" },
  approve: { type: "string" },
  mode: { type: "string" },
  sandbox: { type: "string" },
  "max-turns": { type: "string" },
  "token-budget": { type: "string" },
  "time-limit": { type: "string" },
  "trust-project-env": { type: "boolean" },
  "trust-project": { type: "boolean" },
  continue: { type: "boolean", short: "c" },
  fork: { type: "boolean" },
  resume: { type: "string", short: "r" },
  "no-session": { type: "boolean" },
  "context-window": { type: "string" },
  "trust-project-mcp": { type: "boolean" },
  "allow-local-fetch": { type: "boolean" },
  "input-format": { type: "string" },
  "approval-timeout": { type: "string" },
  "notify-command": { type: "string" },
  worktree: { type: "string", short: "w" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

const OUTPUTS: readonly OutputFormat[] = ["text", "json", "stream-json"];
const INPUTS = ["text", "stream-json"] as const;
const APPROVE_MODES: readonly ApproveMode[] = ["ask", "edits", "all", "plan"];
const SANDBOX_MODES: readonly SandboxMode[] = ["off", "auto", "required"];

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
  if (values.print !== undefined) {
    if (values.print.trim() === "") {
      throw new UsageError('-p needs a task, e.g. tern -p "fix the failing test"');
    }
    args.prompt = values.print;
  }
  if (values["trust-project-mcp"]) args.trustProjectMcp = true;
  if (values["trust-project"]) args.trustProject = true;
  if (values["allow-local-fetch"]) args.allowLocalFetch = true;
  if (values["notify-command"] !== undefined) {
    args.notifyCommand = nonEmpty("--notify-command", values["notify-command"]);
  }
  if (values.worktree !== undefined) args.worktree = nonEmpty("--worktree", values.worktree);
  if (values.provider !== undefined) args.provider = nonEmpty("--provider", values.provider);
  if (values.model !== undefined) args.model = nonEmpty("--model", values.model);
  if (values["base-url"] !== undefined) args.baseUrl = nonEmpty("--base-url", values["base-url"]);
  if (values.api !== undefined) args.api = nonEmpty("--api", values.api);
  if (values.fallback !== undefined) args.fallback = nonEmpty("--fallback", values.fallback);
  if (values["require-tools"] !== undefined) args.requireTools = toolList(values["require-tools"]);
  if (values["max-turns"] !== undefined) args.maxTurns = positiveInteger("--max-turns", values["max-turns"]);
  if (values["token-budget"] !== undefined) {
    args.tokenBudget = positiveInteger("--token-budget", values["token-budget"]);
  }
  if (values["time-limit"] !== undefined) args.timeLimitMs = duration("--time-limit", values["time-limit"]);
  if (values["trust-project-env"]) args.trustProjectEnv = true;
  if (values["context-window"] !== undefined) {
    args.contextWindow = positiveInteger("--context-window", values["context-window"]);
  }
  if (values.continue) args.continue = true;
  if (values.resume !== undefined) args.resume = values.resume.trim();
  if (values["no-session"]) args.noSession = true;
  if (oneOf("--input-format", values["input-format"], INPUTS) === "stream-json") {
    args.inputFormat = "stream-json";
  }
  if (values["approval-timeout"] !== undefined) {
    args.approvalTimeoutMs = duration("--approval-timeout", values["approval-timeout"]);
  }
  if (positionals.length > 0) args.firstPrompt = firstPrompt(positionals, args);
  if (args.continue && args.resume !== undefined) {
    throw new UsageError("--continue and --resume both choose a session; give one of them");
  }
  if (values.fork) {
    if (!args.continue && args.resume === undefined) {
      throw new UsageError("--fork copies a saved session: name it with -r ID (or -c for the latest)");
    }
    if (args.noSession) throw new UsageError("--fork writes a new session, which --no-session forbids");
    args.fork = true;
  }
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
  return args;
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

/** node:util parseArgs in strict mode, its errors turned into one-line `UsageError`s. */
function parseStrict(argv: string[]) {
  try {
    const args = withOptionalResumeId(withAliases(argv));
    return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (!code?.startsWith("ERR_PARSE_ARGS_")) throw error;
    throw new UsageError(usageMessage(code, message));
  }
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

/** Every option's names as typed: `--print`, `-p`, ... */
const KNOWN_OPTIONS = Object.entries(OPTIONS).flatMap(([name, option]) => [
  `--${name}`,
  ...("short" in option ? [`-${option.short}`] : []),
]);

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

/** `--approve` or its synonym `--mode` (default ask); both, naming different modes, is a `UsageError`. */
function approveMode(approve: string | undefined, mode: string | undefined): ApproveMode {
  const fromApprove = oneOf("--approve", approve, APPROVE_MODES);
  const fromMode = oneOf("--mode", mode, APPROVE_MODES);
  if (fromApprove && fromMode && fromApprove !== fromMode) {
    throw new UsageError(`--approve ${fromApprove} and --mode ${fromMode} disagree; give one of them`);
  }
  return fromMode ?? fromApprove ?? "ask";
}

/** `--require-tools a,b`: the names in order; a `UsageError` for an empty list or an empty name. */
function toolList(value: string): string[] {
  const names = value.split(",").map((name) => name.trim());
  if (names.some((name) => name === "")) {
    throw new UsageError(
      `--require-tools needs tool names separated by commas, e.g. list_dir,read_file (got '${value}')`,
    );
  }
  return names;
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
