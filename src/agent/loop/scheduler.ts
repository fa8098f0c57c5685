/**
 * Runs one model turn's tool calls: consecutive read-only calls concurrently (at most `maxParallel` at a
 * time), every write and command alone, in the model's order, with results reported in the model's order.
 */

/** Default number of read-only calls running at once. */
export const MAX_PARALLEL_READS = 4;

/** Why a call has no real result: it never started, or it was a running read left behind on cancel. */
export type CancelState = "not_started" | "abandoned";

/** How to run a turn's calls; the scheduler knows nothing of tools, it only orders and waits. */
export interface ScheduleOptions<T, R> {
  /**
   * True for calls that may run beside each other (reads); false for writes and commands. Asked in order,
   * after every earlier write or command has finished. The call that ends a run of reads is asked twice:
   * once to find the end of the run, and again after those reads finished (reads can change what a write
   * will find, e.g. whether its file was read), so the answer it runs with is the fresh one.
   */
  isReadOnly(call: T, index: number): boolean | Promise<boolean>;
  /** Runs one call. Should not reject: a rejection rejects `scheduleCalls` (a programming error). */
  run(call: T, index: number): Promise<R>;
  /** The result of a call cancelled before it started, or of a running read abandoned on cancel. */
  cancelled(call: T, index: number, state: CancelState): R;
  /** Called once per call, in the model's order, as soon as that call and all before it have a result. */
  onSettled?(result: R, call: T, index: number): void;
  /** Read-only calls running at once; default 4. */
  maxParallel?: number;
  /** Cancels the turn: calls not started get `cancelled(…, "not_started")`. */
  signal?: AbortSignal;
}

/**
 * Runs `calls` and resolves with one result per call, in the model's order.
 *
 * A run of consecutive read-only calls forms a batch that runs concurrently; a write or command waits for
 * the batch before it, and the reads after it wait for it. Since mutations run one at a time in order,
 * edits to the same file are serialised too: each sees the file its predecessor wrote.
 *
 * On abort, calls not yet started resolve as cancelled; running reads are abandoned at once (they hold
 * nothing a later call needs, and their tools see the same signal); a running write or command is awaited,
 * because it stops itself on the signal and what it did must be reported.
 */
export async function scheduleCalls<T, R>(calls: readonly T[], options: ScheduleOptions<T, R>): Promise<R[]> {
  const maxParallel = options.maxParallel ?? MAX_PARALLEL_READS;
  if (!Number.isInteger(maxParallel) || maxParallel < 1) {
    throw new RangeError(`maxParallel must be a positive integer, got ${maxParallel}`);
  }
  const results = new Array<R>(calls.length);
  const settled = new Array<boolean>(calls.length).fill(false);
  let reported = 0;
  const settle = (index: number, result: R) => {
    results[index] = result;
    settled[index] = true;
    while (reported < calls.length && settled[reported]) {
      options.onSettled?.(results[reported], calls[reported], reported);
      reported++;
    }
  };
  const abort = abortWatch(options.signal);
  const readOnly: boolean[] = [];
  const isReadOnly = async (
    index: number,
  ) => (readOnly[index] ??= await options.isReadOnly(calls[index], index));
  try {
    let start = 0;
    while (start < calls.length) {
      let end = start;
      while (end < calls.length && await isReadOnly(end)) end++;
      if (end === start) {
        settle(start, await runAlone(calls[start], start, options));
        start++;
      } else {
        await runBatch({ calls, start, end, maxParallel, options, abort: abort.promise, settle });
        delete readOnly[end];
        start = end;
      }
    }
  } finally {
    abort.dispose();
  }
  return results;
}

/** A write or command: never started after an abort, awaited to its end once started. */
async function runAlone<T, R>(call: T, index: number, options: ScheduleOptions<T, R>): Promise<R> {
  if (options.signal?.aborted) return options.cancelled(call, index, "not_started");
  return await options.run(call, index);
}

interface Batch<T, R> {
  calls: readonly T[];
  start: number;
  end: number;
  maxParallel: number;
  options: ScheduleOptions<T, R>;
  /** Resolves (with "aborted") when the turn is cancelled; never rejects. */
  abort: Promise<"aborted">;
  settle(index: number, result: R): void;
}

/** Runs calls[start..end) with at most maxParallel in flight: each worker takes the next call when free. */
async function runBatch<T, R>(batch: Batch<T, R>): Promise<void> {
  const { calls, options } = batch;
  let next = batch.start;
  const worker = async () => {
    while (next < batch.end) {
      const index = next++;
      const call = calls[index];
      if (options.signal?.aborted) {
        batch.settle(index, options.cancelled(call, index, "not_started"));
        continue;
      }
      const running = options.run(call, index).then((result) => ({ result }));
      const outcome = await Promise.race([running, batch.abort]);
      if (outcome === "aborted") {
        // Left behind: a late rejection must not surface as an unhandled one.
        running.catch(() => {});
        batch.settle(index, options.cancelled(call, index, "abandoned"));
      } else {
        batch.settle(index, outcome.result);
      }
    }
  };
  const workers = Math.min(batch.maxParallel, batch.end - batch.start);
  await Promise.all(Array.from({ length: workers }, worker));
}

/** A promise that resolves when `signal` aborts, and a way to stop listening (no listener outlives a turn). */
function abortWatch(signal?: AbortSignal): { promise: Promise<"aborted">; dispose(): void } {
  if (signal === undefined) return { promise: new Promise(() => {}), dispose: () => {} };
  const { promise, resolve } = Promise.withResolvers<"aborted">();
  const onAbort = () => resolve("aborted");
  if (signal.aborted) resolve("aborted");
  else signal.addEventListener("abort", onAbort, { once: true });
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}
