/** The interface every tool implements, and the error type tools throw for the model. */

/** What a tool may touch: capabilities arrive here, never through globals. */
export interface ToolContext {
  /** Absolute, real (symlink-resolved) path of the project root. */
  root: string;
  /** Fires when the user cancels the turn; long-running tools must stop promptly. */
  signal: AbortSignal;
  /** The conversation's memory of files the model has seen (stale-write guard); absent = no guard. */
  files?: FileTracker;
  /** How execute_command runs; absent = defaults (sandbox "auto", nothing to redact). */
  shell?: ShellSettings;
}

/** A file's state as the model last saw it (after read_file, or after tern's own write). */
export interface FileSnapshot {
  mtimeMs: number;
  size: number;
  /** SHA-256 of the bytes, hex. */
  hash: string;
}

/** Per-conversation memory of what the model has read, keyed by real path. Cleared by /clear. */
export interface FileTracker {
  record(realPath: string, snapshot: FileSnapshot): void;
  get(realPath: string): FileSnapshot | undefined;
  clear(): void;
}

/** Sandbox mode for shell commands: never, when bubblewrap is available, or refuse without it. */
export type SandboxMode = "off" | "auto" | "required";

/** Settings for execute_command. */
export interface ShellSettings {
  sandbox: SandboxMode;
  /** Secret values (the API key) redacted from any command output. */
  secrets: string[];
}

/** A tool's answer. Tools may also return a plain string (success). */
export interface ToolResult {
  content: string;
  isError: boolean;
}

/** How a tool affects the world: decides approval and scheduling. */
export type ToolEffect = "read" | "write" | "exec";

/** A tool the model can call. `run` receives arguments already validated against `parameters`. */
export interface Tool<A = Record<string, unknown>> {
  name: string;
  description: string;
  /** JSON Schema (type "object") of the arguments; each property carries a description. */
  parameters: Record<string, unknown>;
  effect: ToolEffect;
  /** Throw ToolError (or any Error) for a failure the model should read; return text on success. */
  run(args: A, ctx: ToolContext): Promise<string | ToolResult>;
}

/** A failure worded for the model: what went wrong and what to do instead. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
