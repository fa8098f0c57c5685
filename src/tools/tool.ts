/**
 * The interface every tool implements: what a call will touch (`inspect`, before it runs) and what it did
 * (`run`, a structured result). The loop, approval and the UI read these facts; none of them reads a tool's
 * arguments by name.
 */

import type { ToolErrorKind } from "../fs/tool_error.ts";
import type { ImagePart } from "../llm/types.ts";
import type { DiagnosticsOutcome } from "./lsp/report.ts";

export type { SandboxMode } from "../config/settings.ts";
export type { FileSnapshot, FileTracker } from "../fs/file_tracker.ts";
export { ToolError, type ToolErrorKind } from "../fs/tool_error.ts";

/** What every tool may use: capabilities arrive here, never through globals. Settings go to the factory. */
export interface ToolContext {
  /** Absolute, real (symlink-resolved) path of the project root. */
  root: string;
  /** Fires when the user cancels the turn; long-running tools must stop promptly. */
  signal: AbortSignal;
  /** Saves a long text in full under .tern/tool-outputs/ and returns its path relative to the root. */
  spill(text: string): Promise<string>;
  /** Reports progress while the call runs, for the human only (never the model); absent = nobody listens. */
  onUpdate?(update: ToolUpdate): void;
  /** The id of the call being run, for a tool that tags what it reports with it (a sub-agent's events). */
  callId?: string;
  /** Files through an editor that holds them (`tern acp`); absent = the disk. The path guard still decides. */
  editor?: EditorFiles;
  /** The session's language servers (edit_file and write_file report what a write broke); absent = off. */
  diagnostics?: FileDiagnostics;
}

/** What the file tools ask of the session's language servers (tools/lsp/diagnostics.ts). */
export interface FileDiagnostics {
  /**
   * The errors a write brought to `path` (real path) and those it removed, `before` being the file's text
   * before the write (null: a new file). Undefined when no server speaks for the file. Waits a bounded
   * time; never throws.
   */
  after(
    path: string,
    change: { before: string | null; after: string },
  ): Promise<DiagnosticsOutcome | undefined>;
  /** Readies the check of a write to `path` whose text is now `before` (a dry run); returns at once. */
  prepare?(path: string, before: string): void;
}

/**
 * An editor's view of the project's files (ACP's `fs/read_text_file` and `fs/write_text_file`): reads see
 * unsaved changes, writes land in its buffers. Paths are absolute real paths the path guard resolved.
 */
export interface EditorFiles {
  readTextFile(path: string): Promise<string>;
  writeTextFile(path: string, text: string): Promise<void>;
}

/** Progress of a running call: the last lines of its output so far (at most TAIL_LINES). */
export interface ToolUpdate {
  tail: string[];
}

/** Lines of output a progress update carries at most. */
export const TAIL_LINES = 5;

/**
 * How one call affects the world, for approval and scheduling: `read` runs beside other reads; `write`
 * changes files; `exec` runs a program; `network` runs a program that may reach the network.
 */
export type ToolEffect = "read" | "write" | "exec" | "network";

/** What the approval prompt shows before a call runs. */
export type CallPreview =
  /** A file change: the whole file before and after, from a dry run of the tool's own engine. */
  | { kind: "diff"; path: string; before: string; after: string; created: boolean }
  /** A change whose current content cannot be shown (binary, too large, a secrets file): why, and the new text. */
  | { kind: "write_blind"; path: string; after: string; why: string }
  /** A program to run, every line of it. */
  | { kind: "command"; command: string };

/** The facts of one call, known before it runs. */
export interface CallInspection {
  effect: ToolEffect;
  /** Paths the call touches, relative to the root, after the path guard resolved symlinks. */
  paths: string[];
  /** For exec/network: true when the call runs confined by the OS sandbox. */
  sandboxed?: boolean;
  /** Why the call deletes or discards project state (e.g. "git clean -f deletes untracked files"). */
  destructive?: string;
  /** One short line naming the call's target for the UI, e.g. "src/a.ts" or the command's first line. */
  summary: string;
  /**
   * A tool of an outside program (an MCP server): its name and where it runs, in words ("sandboxed: writes
   * only in the project and your HOME, network on"). Such a call asks unless the mode is `all`.
   */
  server?: { name: string; runsIn: string };
  preview?: CallPreview;
}

/** What a call did, for the UI and the loop (never parsed out of the model's text). */
export interface ToolDetails {
  /** A file change: its path and line counts. */
  diff?: { path: string; added: number; removed: number; created: boolean };
  /** A command's exit code (absent when it was killed). */
  exitCode?: number;
  timedOut?: boolean;
  durationMs?: number;
  /** Where the full output was saved, relative to the root. */
  spilledTo?: string;
  /** Background processes still alive at the command's end, killed with its process group. */
  killedBackground?: number;
  /** Invisible characters (zero-width, bidi controls) removed before the model saw the output. */
  hiddenCharacters?: number;
  /** Background processes still running after the command's end, outside its session: "pid command line". */
  survivors?: string[];
  /** Set when the command was killed for printing past the hard output cap: the cap and the bytes read. */
  outputCapped?: { capBytes: number; bytes: number };
  /** Protected paths a sandboxed command changed and tern put back or removed, e.g. "put back .git/config". */
  restored?: string[];
  /**
   * Lines, entries or matches shown, and how many there were, e.g. read_file's page; `more` when a search
   * stopped at its cap, so there were more than `of`.
   */
  shown?: { from: number; to: number; of: number; unit: string; more?: boolean };
  /** The result adds nothing to what the screen shows already (the plan): no result line. */
  quiet?: boolean;
  /** A sub-agent's run (the task tool): which agent, how it ended, and what it used. */
  subAgent?: { agent: string; exitReason: string; turns: number; toolCalls: number; tokens: number };
  /** A fetched page: the HTTP status, the final URL after redirects, and the bytes read. */
  web?: { status: number; url: string; bytes: number };
  /** A call refused because nobody could approve it (headless): the flag that lets it run. */
  needs?: string;
  /** The background process a call started, read or stopped (execute_command, command_output, command_kill). */
  background?: string;
  /** What the language server said of a file change (edit_file, write_file), when one speaks for the file. */
  diagnostics?: DiagnosticsOutcome;
  /** An MCP tool's result: what it holds, summed up for its tool line. */
  mcp?: McpResultSummary;
}

/** What an MCP tool's result holds: lines and bytes of text, and blocks not shown as text ("1 image"). */
export interface McpResultSummary {
  lines: number;
  bytes: number;
  other?: string[];
}

/** A tool's answer: text for the model, facts for the UI, and for a failure its kind. */
export interface ToolResult {
  content: string;
  /** Images for the model beside the text (read_file of a PNG); they go to the log, never into events. */
  images?: ImagePart[];
  details?: ToolDetails;
  error?: { kind: ToolErrorKind };
}

/**
 * A tool the model can call. `inspect` and `run` receive arguments already validated against `parameters`.
 * `P` is the tool's own dry run (its plan): `inspect` may return one, and `run` receives it back for the same
 * call, so the change that was previewed and approved is the change that runs.
 */
export interface Tool<A = Record<string, unknown>, P = unknown> {
  name: string;
  description: string;
  /**
   * A line for the system prompt, only for what the description cannot say (a rule of the workflow, where
   * a tool comes from). Every request repeats the prompt, so a line that restates the description is left out.
   */
  guidance?: string;
  /** JSON Schema (type "object") of the arguments; each property carries a description. */
  parameters: Record<string, unknown>;
  /** Run by the provider, not by tern (see ToolSpec.server): the wire declares it, the model never calls it here. */
  server?: "web_search";
  /**
   * The schema the model is shown, when the description already says part of `parameters` in fewer bytes
   * (every request repeats it); calls are still validated against `parameters`.
   */
  modelParameters?: Record<string, unknown>;
  /**
   * Whether the model is offered the tool now (absent: always). A tool that is useless until something
   * happens (command_output before any background process) stays out of the requests until then.
   */
  offered?(): boolean;
  /**
   * The call's facts before it runs. Throw ToolError when a dry run shows the call cannot succeed (nobody
   * should approve it); the model then reads why. `plan` never reaches approval or the UI.
   */
  inspect(args: A, ctx: ToolContext): Promise<CallInspection & { plan?: P }>;
  /**
   * Runs the call; `plan` is what this call's `inspect` returned (absent when it was not inspected, or planned
   * nothing). Throw ToolError for a failure the model should read, FatalToolError to end the task.
   */
  run(args: A, ctx: ToolContext, plan?: P): Promise<string | ToolResult>;
}

/**
 * A failure the model cannot act on (the sandbox is required but unusable, the project root vanished): the
 * task ends with exit reason "error" instead of the loop carrying on.
 */
export class FatalToolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FatalToolError";
  }
}

/**
 * An abort reason that is not the user's: tern stopped the task (its time limit was reached). A tool says
 * why it stopped with `stopWords(ctx.signal)`, so the model is not told the user cancelled it.
 */
export class TaskStop extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskStop";
  }
}

/** Why `signal` fired, in words for the model: tern's reason (a TaskStop), else "cancelled by the user". */
export function stopWords(signal: AbortSignal): string {
  return signal.reason instanceof TaskStop ? signal.reason.message : "cancelled by the user";
}

/** The inspection of a call that only reads `paths`. */
export function readInspection(paths: string[]): CallInspection {
  return { effect: "read", paths, summary: paths.join(" ") };
}
