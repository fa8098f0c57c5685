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
