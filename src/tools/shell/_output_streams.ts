/**
 * Reading a command's output pipes into its sink, and the waits around it: shared by the two ways a command
 * runs (process_group.ts unconfined, confined_run.ts in bubblewrap).
 */
import { OutputText } from "./output_text.ts";
import type { OutputSink, Stop } from "./run_contract.ts";
import { pipeReader } from "../../fs/pipe_reads.ts";
import { after, type Timer } from "../../timer.ts";

/** A pipe being read: done when it ended, `cancel` stops reading it, `text` its decoder and counts. */
export interface Capture {
  done: Promise<void>;
  cancel(): void;
  text: OutputText;
}

/** Streams `stream` into `into` as text, calling `after` after each chunk; never calls `into.end()`. */
export function capture(stream: ReadableStream<Uint8Array>, into: OutputSink, after: () => void): Capture {
  const reader = pipeReader(stream);
  const text = new OutputText();
  const done = (async () => {
    while (true) {
      // The chunk's buffer is read into again: OutputText copies what it holds back.
      const value = await reader.read();
      if (value === null) break;
      into.push(text.push(value));
      after();
    }
    into.push(text.flush());
  })();
  return { done, cancel: () => void reader.cancel().catch(() => {}), text };
}

/** Resolves "late" after `ms`, unless cleared first. */
export function delay(ms: number): { wait: Promise<"late">; clear(): void } {
  let timer: Timer | undefined;
  const wait = new Promise<"late">((resolve) => timer = after(ms, () => resolve("late")));
  return { wait, clear: () => timer?.clear() };
}

/** How long output may keep flowing after the command exits (stray background writers) before they are killed. */
const DRAIN_GRACE_MS = 300;

/** Waits for the output to end; stray processes still holding it are killed, then abandoned. */
export async function drain(
  output: { done: Promise<void>; cancel(): void },
  kill: () => Promise<void>,
): Promise<void> {
  for (const last of [false, true]) {
    const grace = delay(DRAIN_GRACE_MS);
    const outcome = await Promise.race([output.done, grace.wait]);
    grace.clear();
    if (outcome !== "late") return;
    if (last) output.cancel();
    else await kill();
  }
  await output.done;
}

/**
 * A run's stop: the first reason (its timeout, the caller's cancel, the output cap) calls `kill` once and is
 * kept; later ones are ignored. `dispose` clears the timer and the abort listener.
 */
export function stopOnce(kill: () => unknown, options: { signal: AbortSignal; timeoutMs: number }) {
  let why: Stop | null = null;
  const stop = (reason: Stop) => {
    if (why !== null) return;
    why = reason;
    kill();
  };
  const timer = after(options.timeoutMs, () => stop("timeout"));
  const onAbort = () => stop("cancel");
  options.signal.addEventListener("abort", onAbort);
  return {
    stop,
    get stopped(): Stop | null {
      return why;
    },
    dispose() {
      timer.clear();
      options.signal.removeEventListener("abort", onAbort);
    },
  };
}
