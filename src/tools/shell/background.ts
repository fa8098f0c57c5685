/**
 * Background processes: `execute_command` with `background: true` starts its command like any other (the
 * same deny-list, approval, sandbox and reduced environment, in a process group of its own through
 * runInGroup) but returns at once with an id; its output collects, redacted and bounded, until
 * `command_output` reads it; `command_kill` stops its whole group. They live across turns and belong to the
 * session, which kills them all when it ends; a watchdog in each group kills it also if tern dies first.
 */
import { HeadTail, MAX_OUTPUT_CHARS } from "../_truncate.ts";
import { childEnv } from "./child_env.ts";
import { MAX_SPILL_CHARS } from "./command_output.ts";
import { guardedPaths } from "./guarded_paths.ts";
import { runInGroup } from "./process_group.ts";
import type { OutputSink } from "./run_contract.ts";
import { Redactor } from "./redact.ts";
import { confinedArgv } from "./confined_argv.ts";
import { ToolError, type ToolResult } from "../tool.ts";

/** The longest a timer may wait (setTimeout's limit): "no timeout" for a background process. */
const NO_TIMEOUT_MS = 2_147_483_647;

/** Background processes a session may have running at once. */
export const MAX_BACKGROUND = 8;

/**
 * Runs the command (`$2…`) and, beside it in the same process group, a watchdog that polls tern's pid
 * (`$1`, outside any sandbox) and kills the whole group once tern is gone, however it ended, with what left
 * the group but still carries the command's marker (runInGroup's TERN_COMMAND_ID) in its environment.
 */
const WATCHDOG = `parent=$1; shift
( while kill -0 "$parent" 2>/dev/null; do sleep 2; done
  trap '' TERM; kill -TERM 0
  left=$(grep -lzxF -- "TERN_COMMAND_ID=$TERN_COMMAND_ID" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
  left=$(printf '%s\\n' $left | grep -vx "$BASHPID")
  kill -TERM $left; sleep 1; kill -KILL 0 $left ) </dev/null >/dev/null 2>&1 &
watch=$!
"$@"
code=$?
kill "$watch" 2>/dev/null
exit $code`;

/** A background process at a glance. */
export interface BackgroundInfo {
  id: string;
  command: string;
  state: "running" | "exited" | "killed";
  /** The exit code, once it exited by itself. */
  code?: number;
  /** When it started (ms since the epoch). */
  startedAt: number;
  sandboxed: boolean;
  /** Characters printed since the last read. */
  unread: number;
  /** Processes it started that outlived its end ("pid command line"): they resisted being ended. */
  survivors?: string[];
}

/** What a read returns: the output since the last read (its view for the model, and a larger capture). */
export interface BackgroundRead {
  info: BackgroundInfo;
  /** At most MAX_OUTPUT_CHARS: head and tail, the cut marked. */
  view: string;
  /** At most MAX_SPILL_CHARS, for the spill file. */
  full: string;
  /** Characters printed since the last read. */
  total: number;
  /** Protected paths tern put back after the process ended (said once). */
  restored: string[];
}

/** How to start one: the command as the model wrote it, and how it runs (from execute_command's plan). */
export interface BackgroundStart {
  command: string;
  root: string;
  sandboxed: boolean;
  network: boolean;
  userNamespace?: boolean;
  secrets: string[];
  /** Kill it after this long (default: never). */
  timeoutMs?: number;
}

/** The output since the last read, redacted before it is kept, in bounded memory. */
class Unread implements OutputSink {
  view = new HeadTail(MAX_OUTPUT_CHARS);
  full = new HeadTail(MAX_SPILL_CHARS);
  total = 0;
  /** The stream ended: nothing more will come. */
  ended = false;
  #redactor: Redactor;
  /** Resolves the current waiter (a read that waits for output). */
  #wake?: () => void;

  constructor(secrets: string[]) {
    this.#redactor = new Redactor(secrets);
  }

  push(text: string): void {
    this.#add(this.#redactor.push(text));
  }

  end(): void {
    this.#add(this.#redactor.flush());
    this.ended = true;
    this.#wake?.();
  }

  /** Resolves at the next output or the end of the stream, or after `ms`. */
  async next(ms: number): Promise<void> {
    if (this.ended) return;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#wake = resolve;
    const timer = setTimeout(resolve, ms);
    await promise;
    clearTimeout(timer);
    this.#wake = undefined;
  }

  take(): { view: string; full: string; total: number } {
    const taken = { view: this.view.toString(), full: this.full.toString(), total: this.total };
    [this.view, this.full, this.total] = [new HeadTail(MAX_OUTPUT_CHARS), new HeadTail(MAX_SPILL_CHARS), 0];
    return taken;
  }

  #add(text: string): void {
    if (text === "") return;
    this.total += text.length;
    this.view.push(text);
    this.full.push(text);
    this.#wake?.();
  }
}

/** One process and what it left. */
interface Process {
  info: Omit<BackgroundInfo, "unread">;
  unread: Unread;
  stop: AbortController;
  done: Promise<void>;
  restored: string[];
}

/** The background processes of one session (shared with its sub-agents). */
export class BackgroundProcesses {
  readonly #processes = new Map<string, Process>();
  #count = 0;

  /** True once a process was started in this session (command_output and command_kill are offered then). */
  get started(): boolean {
    return this.#count > 0;
  }

  /** Every process of the session, oldest first. */
  list(): BackgroundInfo[] {
    return [...this.#processes.values()].map((process) => this.#info(process));
  }

  /** The ids of the processes still running. */
  running(): string[] {
    return this.list().filter((info) => info.state === "running").map((info) => info.id);
  }

  /** Starts `start.command` in the background; resolves with its id once it runs. Throws past MAX_BACKGROUND. */
  async start(start: BackgroundStart): Promise<string> {
    if (this.running().length >= MAX_BACKGROUND) {
      throw new Error(`${MAX_BACKGROUND} background processes are running already: kill one first`);
    }
    const { root, sandboxed, network, userNamespace } = start;
    const env = childEnv({ sandboxed });
    const shell = ["bash", "-c", start.command];
    // No before/after comparison of the protected set: over a long life it would undo the user's changes.
    const guarded = sandboxed ? guardedPaths(root, { compare: false, background: true }) : undefined;
    const confined = { root, home: env.HOME, path: env.PATH, network, userNamespace };
    const inner = guarded ? await confinedArgv({ ...confined, ...guarded }, shell) : shell;
    const argv = ["bash", "-c", WATCHDOG, "tern-watch", String(Deno.pid), ...inner];
    const id = `bg${++this.#count}`;
    const unread = new Unread(start.secrets);
    const stop = new AbortController();
    const info = { id, command: start.command, state: "running" as const, startedAt: Date.now(), sandboxed };
    const process: Process = { info, unread, stop, done: Promise.resolve(), restored: [] };
    const timeoutMs = start.timeoutMs ?? NO_TIMEOUT_MS;
    // Ended whole, what left its session (`setsid`) included: nothing it started outlives it unsaid.
    const group = { cwd: root, env, signal: stop.signal, timeoutMs, sink: unread, endDetached: true };
    process.done = runInGroup(argv, group)
      .then(async (finished) => {
        const code = finished.stopped === null ? { code: finished.code } : {};
        const survivors = finished.leftovers?.survivors ?? [];
        const state = finished.stopped === null ? "exited" as const : "killed" as const;
        process.info = { ...process.info, state, ...code, ...(survivors.length > 0 && { survivors }) };
        process.restored = await guarded?.cleanUp() ?? [];
      }, () => {
        process.info = { ...process.info, state: "killed" };
      });
    this.#processes.set(id, process);
    return id;
  }

  /**
   * What process `id` printed since the last read; waits up to `waitMs` for something new when nothing is
   * there yet. Undefined for an unknown id.
   */
  async read(id: string, waitMs = 0): Promise<BackgroundRead | undefined> {
    const process = this.#processes.get(id);
    if (!process) return undefined;
    if (process.unread.total === 0 && waitMs > 0) await process.unread.next(waitMs);
    // Its output ended: the process is ending too, and its state (exit code) follows in a moment.
    if (process.unread.ended) await process.done;
    const taken = process.unread.take();
    const restored = process.restored;
    process.restored = [];
    return { info: this.#info(process), ...taken, restored };
  }

  /** Stops process `id` and its whole group; resolves once it is gone. Undefined for an unknown id. */
  async kill(id: string): Promise<BackgroundInfo | undefined> {
    const process = this.#processes.get(id);
    if (!process) return undefined;
    process.stop.abort();
    await process.done;
    return this.#info(process);
  }

  /** What tern undid among the protected paths after process `id` ended, not yet said; then forgotten. */
  takeRestored(id: string): string[] {
    const process = this.#processes.get(id);
    const restored = process?.restored ?? [];
    if (process) process.restored = [];
    return restored;
  }

  /**
   * Stops every process (the session ends); resolves with one line for each that left a process running
   * (it resisted being ended), for the human.
   */
  async killAll(): Promise<string[]> {
    const ended = await Promise.all([...this.#processes.keys()].map((id) => this.kill(id)));
    return ended.flatMap((info) => info?.survivors ? [survivorLine(info)] : []);
  }

  #info(process: Process): BackgroundInfo {
    return { ...process.info, unread: process.unread.total };
  }
}

/** execute_command's `background: true`: starts the command and tells the model how to follow it. */
export async function startInBackground(
  processes: BackgroundProcesses,
  start: BackgroundStart,
): Promise<ToolResult> {
  let id: string;
  try {
    id = await processes.start(start);
  } catch (error) {
    throw new ToolError(`execute_command: ${(error as Error).message}`, "refused");
  }
  const offline = start.sandboxed && !start.network
    ? " It is sandboxed without network: a server it opens is reachable only inside its own sandbox " +
      "(to reach it from other commands, start both with network: true)."
    : "";
  return {
    content:
      `Started in the background as ${id}${start.timeoutMs ? "" : " (no time limit)"}; read its output ` +
      `with command_output, stop it with command_kill.${offline}`,
    details: { background: id },
  };
}

/** The process's state in words, e.g. "bg1 running for 12 s" or "bg1 exited with code 1". */
export function stateWords(info: BackgroundInfo): string {
  if (info.state === "killed") return `${info.id} was killed`;
  if (info.state === "exited") return `${info.id} exited with code ${info.code}`;
  return `${info.id} running for ${Math.round((Date.now() - info.startedAt) / 1000)} s`;
}

/** "bg1 left 2 processes running: 123 sleep 100, ..." (they outlived its end), for the model or the human. */
export function survivorLine(info: BackgroundInfo): string {
  const survivors = info.survivors ?? [];
  return `${info.id} left ${survivors.length} process(es) running that tern could not end: ` +
    survivors.slice(0, 5).map((line) => line.slice(0, 120)).join(", ") + (survivors.length > 5 ? ", …" : "");
}

/** The known ids, for an error worded for the model. */
export function unknownProcess(id: string, processes: BackgroundProcesses): ToolError {
  const known = processes.list().map((info) => info.id);
  const which = known.length === 0 ? "none was started in this session" : `known: ${known.join(", ")}`;
  return new ToolError(`no background process "${id}" (${which})`, "not_found");
}
