/**
 * The per-turn figures of issue 18, from `tern -p` runs against the fake model server (medians of RUNS runs,
 * the sandbox in its default mode, so on with bubblewrap): one-turn wall time and peak RSS; CPU and wall time
 * per extra execute_command turn (`echo N`), CPU per extra read_file and edit_file turn; the programs each
 * kind of turn starts (strace); CPU per turn at turn 20 and at turn 200 of one long session.
 * `deno run -A bench/turns.ts` runs it alone.
 */
import type { ScriptedTurn } from "../tests/support/fake_model_server.ts";
import {
  cpuPerRequest,
  haveStrace,
  measureMany,
  measureRun,
  programsStarted,
  type RunOptions,
} from "./_tern_run.ts";
import { printRows, type Row } from "./_rows.ts";

const RUNS = 5;
const TURNS = 20;

const answer: ScriptedTurn = { text: "Done.", usage: { prompt_tokens: 100, completion_tokens: 2 } };

function call(name: string, args: Record<string, unknown>): ScriptedTurn {
  return { toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}

const echo = (i: number) => call("execute_command", { command: `echo ${i + 1}` });
// Each turn reads a different page: repeating one call would (rightly) trip the runaway guard.
const read = (i: number) => call("read_file", { path: "notes.txt", offset: i + 1, limit: 50 });
const edit = (i: number) =>
  call("edit_file", {
    path: "values.ts",
    old_text: `value_${i} = ${i};`,
    new_text: `value_${i} = ${2 * i};`,
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

/** Programs started per turn: (started in `n` turns − started in none) / n, and the names one turn adds. */
async function startsPerTurn(
  turnAt: (i: number) => ScriptedTurn,
  options: RunOptions,
): Promise<{ perTurn: number; names: string }> {
  const n = 10;
  const none = await programsStarted(turns(0, turnAt), options);
  const some = await programsStarted(turns(n, turnAt), options);
  const extra = [...some];
  for (const name of none) extra.splice(extra.indexOf(name), 1);
  const counts = new Map<string, number>();
  for (const name of extra) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts].map(([name, k]) => `${name}×${k / n}`).join(" ") || "none";
  return { perTurn: extra.length / n, names };
}

/** Mean CPU per request over requests [from, to). */
function meanOver(deltas: number[], from: number, to: number): number {
  const window = deltas.slice(from, to);
  return window.reduce((a, b) => a + b, 0) / window.length;
}

/** Measures every row; `say` reports progress. */
export async function turnRows(): Promise<Row[]> {
  const root = await project();
  const options = { root };
  try {
    await measureRun(turns(0, echo), options); // warms the module cache
    const one = await measureMany(() => turns(0, echo), options, RUNS);
    const commands = await measureMany(() => turns(TURNS, echo), options, RUNS);
    const reads = await measureMany(() => turns(TURNS, read), options, RUNS);
    const readOnly = () => {
      valuesFile(root);
      return turns(0, edit, [call("read_file", { path: "values.ts" })]);
    };
    const edited = () => {
      valuesFile(root);
      return turns(TURNS, edit, [call("read_file", { path: "values.ts" })]);
    };
    const readFirst = await measureMany(readOnly, options, RUNS);
    const edits = await measureMany(edited, options, RUNS);
    const per = (many: number, few: number) => ((many - few) / TURNS) * 1000;
    const rows: Row[] = [
      { name: "one-turn tern -p, wall", unit: "s", value: one.wallSeconds, target: 0.15, before: 0.13 },
      { name: "one-turn tern -p, peak RSS", unit: "MB", value: one.peakRssMb, target: 60, before: 63 },
      {
        name: "CPU per extra execute_command turn",
        unit: "ms",
        value: per(commands.cpuSeconds, one.cpuSeconds),
        target: 20,
        before: 0,
      },
      {
        name: "wall per extra execute_command turn",
        unit: "ms",
        value: per(commands.wallSeconds, one.wallSeconds),
        target: 30,
        before: 0,
      },
      {
        name: "CPU per extra read_file turn",
        unit: "ms",
        value: per(reads.cpuSeconds, one.cpuSeconds),
        target: 5,
        before: 0,
      },
      {
        name: "CPU per extra edit_file turn",
        unit: "ms",
        value: per(edits.cpuSeconds, readFirst.cpuSeconds),
        target: 8,
        before: 0,
      },
    ];
    if (await haveStrace()) {
      const command = await startsPerTurn(echo, options);
      const reading = await startsPerTurn(read, options);
      rows.push(
        {
          name: `programs started per command turn (${command.names})`,
          unit: "",
          value: command.perTurn,
          target: 2,
          before: 0,
        },
        {
          name: `programs started per read turn (${reading.names})`,
          unit: "",
          value: reading.perTurn,
          target: 0,
          before: 0,
        },
      );
    } else {
      console.log("strace is not installed: the programs started per turn are not counted");
    }
    const deltas = await cpuPerRequest(220, echo, options);
    const at20 = meanOver(deltas, 10, 30);
    const at200 = meanOver(deltas, 190, 210);
    rows.push(
      { name: "CPU per turn at turn 20 of a 220-turn session", unit: "ms", value: at20 },
      { name: "CPU per turn at turn 200 of it", unit: "ms", value: at200 },
      { name: "  turn 200 / turn 20", unit: "×", value: at200 / at20, target: 1.5, before: 0 },
    );
    return rows;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  printRows("per-turn figures (tern -p, the sandbox on where bubblewrap works):", await turnRows());
}
