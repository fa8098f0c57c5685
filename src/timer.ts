/**
 * Timers for what every run does (a model request, a command, a file helper answer), without the global
 * setTimeout: in Deno 2.9 it and clearTimeout come from node:timers, and touching either loads Deno's Node
 * compatibility code, some 3 MB and 4 ms of every start. AbortSignal.timeout rides Deno's own timer queue
 * instead, but its wait cannot be cancelled: so one wait runs at a time, for the earliest timer set and at
 * most STEP_MS long, and a cleared timer holds the event loop that long at most.
 */

/** A timer set with `after`; `clear` stops it before it fires (a fired timer stays fired). */
export interface Timer {
  clear(): void;
}

interface Entry {
  due: number;
  run: () => void;
}

/** The longest single wait: what a cleared timer may keep the process alive for. */
const STEP_MS = 1000;

const armed = new Set<Entry>();
/** When the wait that re-arms ends (performance.now()), or undefined when none runs. */
let waking: number | undefined;
/** The token of that wait: an older one still running when an earlier timer came only fires what is due. */
let current = 0;

/** Calls `run` once after `ms` milliseconds, unless cleared first; ref'd as setTimeout is. */
export function after(ms: number, run: () => void): Timer {
  const entry = { due: performance.now() + (Math.max(0, ms) || 0), run };
  armed.add(entry);
  wakeBy(entry.due);
  return { clear: () => void armed.delete(entry) };
}

function wakeBy(due: number): void {
  if (waking !== undefined && waking <= due) return;
  const now = performance.now();
  const until = Math.min(due, now + STEP_MS);
  const token = ++current;
  waking = until;
  AbortSignal.timeout(Math.max(0, Math.ceil(until - now))).addEventListener("abort", () => wake(token), {
    once: true,
  });
}

/** Runs the timers that are due, in the order they were set; a callback's throw surfaces as setTimeout's would. */
function wake(token: number): void {
  if (token === current) waking = undefined;
  const now = performance.now();
  for (const entry of [...armed]) {
    // Not yet due, or cleared by a callback run just before.
    if (entry.due > now || !armed.has(entry)) continue;
    armed.delete(entry);
    try {
      entry.run();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
  let next = Number.POSITIVE_INFINITY;
  for (const entry of armed) next = Math.min(next, entry.due);
  if (next < Number.POSITIVE_INFINITY) wakeBy(next);
}
