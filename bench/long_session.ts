/**
 * The 1,000-turn row of issue 31: one scripted `tern -p` session of 1,000 `echo N` command turns (the
 * sandbox in its default mode), its CPU per turn at turns 1-20 and 981-1,000 and their ratio, tern's peak
 * RSS, and how much longer `tern -c` on that session takes to answer than a fresh one-turn run (medians of
 * RUNS alternating pairs). Whatever grows with the history shows here. `deno run -A bench/long_session.ts`
 * runs it alone.
 */
import type { ScriptedTurn } from "../tests/support/fake_model_server.ts";
import { marksPerRequest, measureRun, median } from "./_tern_run.ts";
import type { Row } from "./_rows.ts";
import { rssFloorMb, rssFloorRows } from "./rss_floor.ts";

const TURNS = 1000;
const WINDOW = 20;
const RUNS = 3;
/** Pieces of 8 characters, as the team's scripted comparison server streams (see turns.ts). */
const PIECE = 8;

/** Issue 31's figures before it (two runs of the comparison: 1.35-1.69× the CPU, 146-152 MB). */
const BEFORE = { ratio: 1.35, rss: 146 };

const answer: ScriptedTurn = {
  text: "Done.",
  usage: { prompt_tokens: 100, completion_tokens: 2 },
  chunkSize: PIECE,
};

function echo(i: number): ScriptedTurn {
  const call = { name: "execute_command", arguments: JSON.stringify({ command: `echo ${i + 1}` }) };
  return { toolCalls: [call], chunkSize: PIECE };
}

/** Mean CPU per turn over the turns whose requests are [from, from + WINDOW] (one turn: request to request). */
function perTurn(cpu: number[], from: number): number {
  return (cpu[from + WINDOW] - cpu[from]) / WINDOW;
}

/** Wall seconds of `tern -c -p` in `root` and of a fresh one-turn run in `fresh`, medians of RUNS pairs. */
async function continueCost(root: string, fresh: string): Promise<{ continued: number; fresh: number }> {
  let history = 0;
  const continued: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const seen = (body: unknown) => {
      history = Math.max(history, (body as { messages: unknown[] }).messages.length);
      return answer;
    };
    continued.push((await measureRun(seen, { root, args: ["-c"] })).wallSeconds);
    first.push((await measureRun([answer], { root: fresh })).wallSeconds);
  }
  // A -c that did not load the session would look cheap: its request must hold the 1,000 turns.
  if (history < 2 * TURNS) throw new Error(`tern -c sent ${history} messages, not the session's history`);
  return { continued: median(continued), fresh: median(first) };
}

/** Runs the session in a temp project of its own (removed again) and measures every row. */
export async function longSessionRows(): Promise<Row[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-long-" }));
  const fresh = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-fresh-" }));
  try {
    const script = [...Array.from({ length: TURNS }, (_, i) => echo(i)), answer];
    const marks = await marksPerRequest((index) => script[index], { root });
    const cpu = marks.map((mark) => mark.cpuMs);
    // marks[0] is the first request: turn 1 runs between it and the next.
    const early = perTurn(cpu, 0);
    const late = perTurn(cpu, TURNS - WINDOW);
    const resume = await continueCost(root, fresh);
    return [
      { name: `CPU per turn, turns 1-${WINDOW} of a ${TURNS}-turn session`, unit: "ms", value: early },
      { name: `CPU per turn, turns ${TURNS - WINDOW + 1}-${TURNS}`, unit: "ms", value: late },
      { name: "  late / early", unit: "×", value: late / early, target: 1.3, before: BEFORE.ratio },
      {
        name: `peak RSS of the ${TURNS}-turn session`,
        unit: "MB",
        value: marks.at(-1)!.peakRssMb,
        target: 100,
        before: BEFORE.rss,
      },
      ...rssFloorRows(await rssFloorMb(root, TURNS), marks.at(-1)!.peakRssMb, TURNS),
      { name: "tern -c on it, wall (one more turn)", unit: "s", value: resume.continued },
      { name: "  a fresh one-turn run, wall", unit: "s", value: resume.fresh },
      { name: "  -c minus fresh", unit: "s", value: resume.continued - resume.fresh, target: 0.5 },
    ];
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(fresh, { recursive: true });
  }
}

if (import.meta.main) {
  const { printRows } = await import("./_rows.ts");
  printRows(
    `a ${TURNS}-turn session (tern -p, the sandbox on where bubblewrap works):`,
    await longSessionRows(),
  );
}
