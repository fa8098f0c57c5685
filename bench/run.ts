/**
 * `deno task bench`: tern -p against the local fake model server. First the request-body bytes of issue 10
 * (bench/request_bytes.ts); then, measured with /usr/bin/time, one-turn wall time and peak RSS and the CPU
 * cost of each extra tool turn over a 20-turn script; then the tool figures (bench/tools.ts): grep/glob on
 * a 50,000-file tree, read/edit of a 5 MB file. Sub-agents (bench/sub_agents.ts): what a child's five reads
 * add to the main session's next request.
 */
import { type ScriptedTurn, startFakeModel } from "../tests/support/fake_model_server.ts";
import { ternRunArgs } from "../tests/support/cli.ts";
import { runToolBench } from "./tools.ts";
import { runSnapshotBench } from "./snapshots.ts";
import { printRequestBytes } from "./request_bytes.ts";
import { printSubAgentBench } from "./sub_agents.ts";

const RUNS = 5;

interface Measure {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

async function measureRun(root: string, script: ScriptedTurn[]): Promise<Measure> {
  await using model = await startFakeModel(script);
  const command = new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "BENCH %e %U %S %M",
      Deno.execPath(),
      ...await ternRunArgs(),
      "-p",
      "bench task",
      "--approve",
      "all",
    ],
    cwd: root,
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "bench", TERN_MODEL: "fake", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  const output = await command.output();
  const stderr = new TextDecoder().decode(output.stderr);
  const line = stderr.split("\n").find((text) => text.startsWith("BENCH "));
  if (!output.success || !line) throw new Error(`tern failed (exit ${output.code}):\n${stderr}`);
  const [wall, user, sys, rssKb] = line.slice(6).split(" ").map(Number);
  return { wallSeconds: wall, cpuSeconds: user + sys, peakRssMb: rssKb / 1024 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measureMany(root: string, script: ScriptedTurn[]): Promise<Measure> {
  const runs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measureRun(root, script));
  return {
    wallSeconds: median(runs.map((run) => run.wallSeconds)),
    cpuSeconds: median(runs.map((run) => run.cpuSeconds)),
    peakRssMb: median(runs.map((run) => run.peakRssMb)),
  };
}

await printRequestBytes();
await printSubAgentBench();

const root = await Deno.makeTempDir({ prefix: "tern-bench-" });
try {
  await Deno.writeTextFile(`${root}/notes.txt`, "a line of notes\n".repeat(200));
  const answer: ScriptedTurn = { text: "Done.", usage: { prompt_tokens: 100, completion_tokens: 2 } };
  // Each turn reads a different page: repeating one call would (rightly) trip the runaway guard.
  const toolTurns: ScriptedTurn[] = Array.from({ length: 20 }, (_, i) => ({
    toolCalls: [{
      name: "read_file",
      arguments: JSON.stringify({ path: "notes.txt", offset: i + 1, limit: 50 }),
    }],
  }));
  // Warm the module cache so the first measured run is not a compile.
  await measureRun(root, [answer]);
  const one = await measureMany(root, [answer]);
  const twenty = await measureMany(root, [...toolTurns, answer]);
  const perTurnMs = ((twenty.cpuSeconds - one.cpuSeconds) / 20) * 1000;
  console.log(
    `one-turn tern -p: ${one.wallSeconds.toFixed(2)} s wall, ${one.peakRssMb.toFixed(0)} MB peak RSS, ` +
      `${(one.cpuSeconds * 1000).toFixed(0)} ms CPU (median of ${RUNS})`,
  );
  console.log(
    `21-turn tern -p (20 read_file turns): ${twenty.wallSeconds.toFixed(2)} s wall, ` +
      `${twenty.peakRssMb.toFixed(0)} MB peak RSS, ${(twenty.cpuSeconds * 1000).toFixed(0)} ms CPU`,
  );
  console.log(`CPU per extra tool turn: ${perTurnMs.toFixed(1)} ms`);
  console.log(
    `targets: one-turn ≤ 0.4 s (ratio ${(one.wallSeconds / 0.4).toFixed(2)}), ≤ 90 MB ` +
      `(ratio ${(one.peakRssMb / 90).toFixed(2)}), ≤ 10 ms per turn (ratio ${(perTurnMs / 10).toFixed(2)})`,
  );
} finally {
  await Deno.remove(root, { recursive: true });
}

await runToolBench();
await runSnapshotBench();
