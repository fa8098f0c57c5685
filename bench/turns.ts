/**
 * The per-turn figures of issue 18, from `tern -p` runs against the fake model server (medians over RUNS
 * pairs of runs, the sandbox in its default mode, so on with bubblewrap): one-turn wall time and peak RSS;
 * CPU and wall time per extra execute_command turn (`echo N`) and the peak RSS of 20 of them; CPU per extra
 * read_file and edit_file turn; the programs each kind of turn starts (strace); CPU per turn at turn 20 and
 * at turn 200 of one long session; and issue 31's floors beside them (bench/floors.ts: each turn figure ÷
 * one bare bwrap run, the one-turn wall ÷ an empty deno run).
 * `deno run -A bench/turns.ts` runs it alone.
 */
import type { ScriptedTurn } from "../tests/support/fake_model_server.ts";
import {
  haveStrace,
  marksPerRequest,
  measureRun,
  median,
  programsStarted,
  type RunFigures,
  type RunOptions,
} from "./_tern_run.ts";
import { printRows, type Row } from "./_rows.ts";
import { floorRows, type Floors, medianFloors, sampleFloors } from "./floors.ts";
import { rssFloorMb, rssFloorRows } from "./rss_floor.ts";

const RUNS = 7;
const TURNS = 20;

/**
 * main before issue 18 (7e7e8c2), measured on this machine by this bench (the same pairs and medians), so
 * the rows show before and now side by side.
 */
const BEFORE = {
  oneWall: 0.14,
  oneRss: 62,
  commandCpu: 63,
  commandWall: 121,
  readCpu: 9.5,
  editCpu: 29,
  commandStarts: 13,
  readStarts: 2,
  at20: 49,
  at200: 60,
};

/**
 * The stream is cut into pieces of 8 characters, as the scripted server of the team's side-by-side comparison (the side-by-side
 * comparison behind the targets) cuts it; the fake server's default is 4, and every piece is a network read.
 */
const PIECE = 8;

const answer: ScriptedTurn = {
  text: "Done.",
  usage: { prompt_tokens: 100, completion_tokens: 2 },
  chunkSize: PIECE,
};

function call(name: string, args: Record<string, unknown>): ScriptedTurn {
  return { toolCalls: [{ name, arguments: JSON.stringify(args) }], chunkSize: PIECE };
}

const echo = (i: number) => call("execute_command", { command: `echo ${i + 1}` });
// Each turn reads a different page: repeating one call would (rightly) trip the runaway guard.
const read = (i: number) => call("read_file", { path: "notes.txt", offset: i + 1, limit: 50 });
const edit = (i: number) =>
  call("edit_file", {
    path: "values.ts",
    old_text: `value_${i} = ${i};`,
    new_text: `value_${i} = ${i + 1000};`,
  });

function turns(n: number, turnAt: (i: number) => ScriptedTurn, first: ScriptedTurn[] = []): ScriptedTurn[] {
  return [...first, ...Array.from({ length: n }, (_, i) => turnAt(i)), answer];
}

/** The project the runs work in; values.ts is written afresh before every edit run. */
async function project(): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-turns-" }));
  await Deno.writeTextFile(`${root}/notes.txt`, "a line of notes\n".repeat(200));
  return root;
}

function valuesFile(root: string): void {
  const lines = Array.from({ length: 200 }, (_, i) => `export const value_${i} = ${i};\n`);
  Deno.writeTextFileSync(`${root}/values.ts`, lines.join(""));
}

/**
 * Programs started per turn: (started in 20 turns − started in 10) / 10, so what starts once per run (the
 * sandbox probe, the file helper, the process limit's cgroup) cancels out; and the names one turn adds.
 */
async function startsPerTurn(
  turnAt: (i: number) => ScriptedTurn,
  options: RunOptions,
): Promise<{ perTurn: number; names: string }> {
  const few = await programsStarted(turns(10, turnAt), options);
  const many = await programsStarted(turns(20, turnAt), options);
  const extra = [...many];
  for (const name of few) if (extra.includes(name)) extra.splice(extra.indexOf(name), 1);
  const counts = new Map<string, number>();
  for (const name of extra) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts].map(([name, k]) => `${name}×${k / 10}`).join(" ") || "none";
  return { perTurn: (many.length - few.length) / 10, names };
}

/** Mean CPU per request over requests [from, to). */
function meanOver(deltas: number[], from: number, to: number): number {
  const window = deltas.slice(from, to);
  return window.reduce((a, b) => a + b, 0) / window.length;
}

/**
 * Cost per extra turn, from inside RUNS runs of `first` then TURNS turns made by `turnAt`: the CPU time of
 * tern and all it started (the file helper included) and the wall time from the request after `first` to the
 * last, divided by TURNS; medians over the runs. Start-up and exit, which a longer run does not repeat, stay
 * out; what the first turn of a kind sets up (the process limit's cgroup) is in. The file helper starts with
 * the session, beside the sandbox probe, before the first request.
 */
async function perTurn(
  turnAt: (i: number) => ScriptedTurn,
  options: RunOptions,
  first: ScriptedTurn[] = [],
  before?: () => void,
): Promise<{ cpuMs: number; wallMs: number; peakRssMb: number }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    before?.();
    const script = turns(TURNS, turnAt, first);
    const marks = await marksPerRequest((index) => script[index], options);
    const from = marks[first.length];
    const to = marks[first.length + TURNS];
    cpu.push((to.cpuMs - from.cpuMs) / TURNS);
    wall.push((to.wallMs - from.wallMs) / TURNS);
    rss.push(to.peakRssMb);
  }
  return { cpuMs: median(cpu), wallMs: median(wall), peakRssMb: median(rss) };
}

/** Measures every row. */
export async function turnRows(): Promise<Row[]> {
  const root = await project();
  const options = { root };
  try {
    await measureRun(turns(0, echo), options); // warms the module cache
    // The floors of issue 31, sampled before, between and after the turns they divide.
    const floors: Floors[] = [await sampleFloors(root)];
    const ones: RunFigures[] = [];
    for (let i = 0; i < RUNS; i++) ones.push(await measureRun(turns(0, echo), options));
    const one = {
      wallSeconds: median(ones.map((run) => run.wallSeconds)),
      peakRssMb: median(ones.map((run) => run.peakRssMb)),
    };
    const commands = await perTurn(echo, options);
    floors.push(await sampleFloors(root));
    const reads = await perTurn(read, options);
    const edits = await perTurn(
      edit,
      options,
      [call("read_file", { path: "values.ts" })],
      () => valuesFile(root),
    );
    floors.push(await sampleFloors(root));
    const rows: Row[] = [
      {
        name: "one-turn tern -p, wall",
        unit: "s",
        value: one.wallSeconds,
        target: 0.15,
        before: BEFORE.oneWall,
      },
      {
        name: "one-turn tern -p, peak RSS",
        unit: "MB",
        value: one.peakRssMb,
        target: 60,
        before: BEFORE.oneRss,
      },
      {
        name: "CPU per extra execute_command turn",
        unit: "ms",
        value: commands.cpuMs,
        target: 20,
        before: BEFORE.commandCpu,
      },
      {
        name: "wall per extra execute_command turn",
        unit: "ms",
        value: commands.wallMs,
        target: 30,
        before: BEFORE.commandWall,
      },
      // Issue 31: tern's own peak resident memory when the last of the 20 command turns is answered.
      { name: "peak RSS of 20 command turns", unit: "MB", value: commands.peakRssMb, target: 60 },
      ...rssFloorRows(await rssFloorMb(root, TURNS), commands.peakRssMb, TURNS),
      {
        name: "CPU per extra read_file turn",
        unit: "ms",
        value: reads.cpuMs,
        target: 5,
        before: BEFORE.readCpu,
      },
      {
        name: "CPU per extra edit_file turn",
        unit: "ms",
        value: edits.cpuMs,
        target: 8,
        before: BEFORE.editCpu,
      },
    ];
    rows.push(...floorRows(medianFloors(floors), {
      oneWallSeconds: one.wallSeconds,
      commandCpuMs: commands.cpuMs,
      readCpuMs: reads.cpuMs,
      editCpuMs: edits.cpuMs,
    }));
    if (await haveStrace()) {
      const command = await startsPerTurn(echo, options);
      const reading = await startsPerTurn(read, options);
      rows.push(
        {
          name: `programs started per command turn (${command.names})`,
          unit: "",
          value: command.perTurn,
          target: 2,
          before: BEFORE.commandStarts,
        },
        {
          name: `programs started per read turn (${reading.names})`,
          unit: "",
          value: reading.perTurn,
          target: 0,
          before: BEFORE.readStarts,
        },
      );
    } else {
      console.log("strace is not installed: the programs started per turn are not counted");
    }
    const long = turns(220, echo);
    const marks = await marksPerRequest((index) => long[index], options);
    const deltas = marks.slice(1).map((mark, i) => mark.cpuMs - marks[i].cpuMs);
    const at20 = meanOver(deltas, 10, 30);
    const at200 = meanOver(deltas, 190, 210);
    rows.push(
      { name: "CPU per turn at turn 20 of a 220-turn session", unit: "ms", value: at20, before: BEFORE.at20 },
      { name: "CPU per turn at turn 200 of it", unit: "ms", value: at200, before: BEFORE.at200 },
      {
        name: "  turn 200 / turn 20",
        unit: "×",
        value: at200 / at20,
        target: 1.5,
        before: BEFORE.at200 / BEFORE.at20,
      },
    );
    return rows;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  printRows("per-turn figures (tern -p, the sandbox on where bubblewrap works):", await turnRows());
}
