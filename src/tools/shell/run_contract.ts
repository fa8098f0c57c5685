/** What running a command takes and gives back, whichever way it runs (a process group, or bubblewrap). */

/** Where the command's combined stdout and stderr go, as decoded text. */
export interface OutputSink {
  push(text: string): void;
  /** Called once, after the last `push`. */
  end(): void;
}

/** Why a command was stopped before it finished on its own. */
export type Stop = "timeout" | "cancel" | "output_cap";

/** Processes the command left running when it ended. */
export interface Leftovers {
  /** How many were still in its session at its end, and were killed then. */
  killed: number;
  /** Those still running afterwards ("pid command line"): they left its session, or resisted SIGKILL. */
  survivors: string[];
}

/** How a run ended: the exit code, whether tern stopped it, what it printed and what it left behind. */
export interface Finished {
  code: number;
  stopped: Stop | null;
  /** Bytes of output read. */
  bytes: number;
  /** True when the output held NUL bytes or bytes that are not UTF-8 (shown escaped). */
  binary: boolean;
  /** Background processes at the command's end; absent where /proc cannot tell (macOS). */
  leftovers?: Leftovers;
}

/** What `runInGroup` needs besides the command. */
export interface GroupOptions {
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  sink: OutputSink;
  /** Bytes of output after which the command is killed (stopped: "output_cap"); default: no cap. */
  maxOutputBytes?: number;
  /**
   * `argv` starts bubblewrap (sandbox.ts's confinedArgv): it is started directly, in one spawn, and killed
   * through its pid; the sandbox's own PID namespace takes everything the command started with it.
   */
  sandboxed?: boolean;
  /**
   * At its end, also end what left its session (`setsid`) and every descendant (a background command is
   * ended whole); by default those are only reported.
   */
  endDetached?: boolean;
}
