/** The run settings tern takes from the command line: their types, owned here so every layer can read them. */

/**
 * How tool calls get approved: `ask` before edits and commands, `edits` run freely, `all` runs everything;
 * `plan` (plan mode) runs only read-only tools and refuses the rest, never asking.
 */
export type ApproveMode = "ask" | "edits" | "all" | "plan";

/** How a headless run reports: the final text, one JSON object, or one event per line. */
export type OutputFormat = "text" | "json" | "stream-json";

/** Sandbox mode for shell commands: never, when bubblewrap is available, or refuse without it. */
export type SandboxMode = "off" | "auto" | "required";

/** The settings of one run that come straight from the command line (the CLI produces them). */
export interface RunSettings {
  /** The task of a headless run (`-p`); absent for the REPL. */
  prompt?: string;
  output: OutputFormat;
  approve: ApproveMode;
  sandbox: SandboxMode;
  /** Model requests allowed per task (off when undefined). */
  maxTurns?: number;
  /** Tokens allowed per task (off when undefined). */
  tokenBudget?: number;
  /** Wall-clock limit of a task, in milliseconds. */
  timeLimitMs?: number;
  /** Send the user's key to an endpoint the project's `.env` chose, without asking. */
  trustProjectEnv?: boolean;
  /**
   * Tools the model must call, in order, each until one call of it succeeds (`--require-tools`); the
   * names are checked against the registry before a task runs.
   */
  requireTools?: string[];
}

/** Parses a duration such as "90", "90s", "15m", "1h" or "1h30m" into milliseconds; undefined if invalid. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const match = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(trimmed);
  if (!match || trimmed === "") return undefined;
  const [, h = "0", m = "0", s = "0", ms = "0"] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms);
}
