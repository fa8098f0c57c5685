/** A run that reports through a callback, as an async stream of its events whose return value is its result. */
import type { AgentEvent } from "./events.ts";

/** Starts `run` with an event sink and yields each event in order; returns what `run` resolved with. */
export async function* streamEvents<T>(
  run: (onEvent: (event: AgentEvent) => void) => Promise<T>,
): AsyncGenerator<AgentEvent, T> {
  const queue: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const running = run((event) => (queue.push(event), wake?.())).finally(() => (done = true, wake?.()));
  while (true) {
    while (queue.length > 0) yield queue.shift()!;
    if (done) return await running;
    await new Promise<void>((resolve) => wake = resolve);
  }
}
