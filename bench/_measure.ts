/** Shared pieces of the tool bench: the tool context, timing, and number formatting. */

import { spillText } from "../src/tools/spill.ts";
import type { ToolContext } from "../src/tools/tool.ts";

/** The context the loop gives a tool. */
export function toolContext(root: string): ToolContext {
  return { root, signal: new AbortController().signal, spill: (text) => spillText(root, "bench", text) };
}

/** Median of `runs` timed calls of `fn`, in ms, after one untimed warm-up; also the last result. */
export async function timed<T>(runs: number, fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  let value = await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    value = await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], value };
}

/** A number with thousands separators. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** Milliseconds, rounded to what matters. */
export function ms(value: number): string {
  return value < 10 ? `${value.toFixed(1)} ms` : `${count(Math.round(value))} ms`;
}

/** A ratio to two places. */
export function ratio(a: number, b: number): string {
  return (a / b).toFixed(2);
}

/** Runs a command in `cwd`, its output read in full (as a user at a terminal would wait for it). */
export async function command(cwd: string, program: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(program, {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  // rg exits 1 when nothing matched; anything else is a broken bench.
  if (output.code > 1) throw new Error(`${program} failed: ${new TextDecoder().decode(output.stderr)}`);
  return new TextDecoder().decode(output.stdout);
}

/**
 * `a` and `b` timed in alternation, `runs` times each after one warm-up of each: medians of both and the
 * median of the per-pair ratios a/b, so a machine whose load drifts during the runs skews neither.
 */
export async function paired(
  runs: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<{ aMs: number; bMs: number; ratio: number }> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    await a();
    as.push(performance.now() - start);
    start = performance.now();
    await b();
    bs.push(performance.now() - start);
    ratios.push(as[i] / bs[i]);
  }
  const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)];
  return { aMs: median(as), bMs: median(bs), ratio: median(ratios) };
}
