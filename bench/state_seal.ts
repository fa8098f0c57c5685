/**
 * What sealing tern's state costs (issue 28): the CPU a turn spends sealing its session lines, against the
 * JSON serialisation it does anyway, and what checking every line adds to resuming a 100-prompt session.
 */
import { parseSession } from "../src/agent/log/session_load.ts";
import { openLine, sealLine, StateSeal } from "../src/agent/state/seal.ts";
import { count, ms } from "./_measure.ts";

/** The lines of one typical turn: a prompt, 5 tool steps with ~2 KB of output each, the answer. */
function turnBodies(t: number): string[] {
  const bodies = [
    JSON.stringify({ type: "entry", entry: { kind: "user", text: `task ${t}: fix the handler` } }),
  ];
  for (let s = 0; s < 5; s++) {
    const id = `c${t}_${s}`;
    const toolCalls = [{ id, name: "read_file", arguments: JSON.stringify({ path: `src/f${s}.ts` }) }];
    const content = "export const x = 1; // a typical line of code\n".repeat(45);
    bodies.push(
      JSON.stringify({
        type: "entry",
        entry: { kind: "assistant", message: { role: "assistant", content: "Looking.", toolCalls } },
      }),
    );
    bodies.push(
      JSON.stringify({
        type: "entry",
        entry: { kind: "tool_result", callId: id, name: "read_file", content, isError: false },
      }),
    );
  }
  bodies.push(
    JSON.stringify({
      type: "entry",
      entry: { kind: "assistant", message: { role: "assistant", content: "Done." } },
    }),
  );
  return bodies;
}

/** Median ms of `runs` calls of `fn`, after a warm-up. */
function median(runs: number, fn: () => void): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/** Prints the figures. */
export function runSealBench(): void {
  const seal = new StateSeal(crypto.getRandomValues(new Uint8Array(32)));
  const bodies = turnBodies(0);
  const bytes = bodies.reduce((sum, body) => sum + body.length, 0);
  // 100 turns per sample, so the figure per turn is well above the timer's resolution.
  const sealMs = median(9, () => {
    for (let t = 0; t < 100; t++) for (const body of bodies) sealLine(seal, "session:x", body);
  }) / 100;
  const stringifyMs = median(9, () => {
    for (let t = 0; t < 100; t++) for (const body of bodies) JSON.stringify(JSON.parse(body));
  }) / 100;
  console.log(
    `sealing one turn's ${bodies.length} session lines (${count(bytes)} bytes): ${
      (sealMs * 1000).toFixed(0)
    } µs ` +
      `of CPU (HMAC-SHA256, node:crypto, synchronous), against ${(stringifyMs * 1000).toFixed(0)} µs to ` +
      "parse and serialise the same lines once",
  );
  const header = JSON.stringify({
    type: "session",
    version: 1,
    id: "x",
    startedAt: "",
    tern: "b",
    provider: "p",
    model: "m",
    api: "chat",
  });
  const plain = [header, ...Array.from({ length: 100 }, (_, t) => turnBodies(t)).flat()];
  const sealed = plain.map((body) => sealLine(seal, "session:x", body)).join("\n") + "\n";
  const unsealed = plain.join("\n") + "\n";
  const checkOnly = median(5, () => {
    for (const line of sealed.split("\n").slice(0, -1)) openLine(seal, "session:x", line);
  });
  const withSeal = median(5, () => parseSession(sealed, "/p/x.jsonl", "/p", seal));
  const without = median(5, () => parseSession(unsealed, "/p/x.jsonl", "/p"));
  console.log(
    `resuming a 100-prompt session (${count(sealed.length)} bytes, ${count(plain.length)} lines): ` +
      `${ms(withSeal)} with every seal checked, ${ms(without)} without (the checks alone: ${ms(checkOnly)})`,
  );
}

if (import.meta.main) runSealBench();
