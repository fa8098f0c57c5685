/**
 * Undo's and sessions' costs: a snapshot of the 50,000-file bench tree (first, then unchanged, then after
 * one edit), and loading a saved session of a long conversation (its size on disk, and the time to resume).
 */
import { Snapshots } from "../src/agent/log/snapshots.ts";
import { Conversation } from "../src/agent/log/conversation.ts";
import { loadSession } from "../src/agent/log/session_load.ts";
import { SessionWriter } from "../src/agent/log/session_writer.ts";
import { generateTree } from "./_tree.ts";
import { count, ms, ratio, timed } from "./_measure.ts";

async function snapshotFigures(): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-snap-" }));
  try {
    const stats = generateTree(root);
    const snapshots = await Snapshots.open(root);
    if (snapshots === null) {
      console.log("snapshots: git not installed, skipped");
      return;
    }
    let start = performance.now();
    await snapshots.take();
    const first = performance.now() - start;
    const unchanged = await timed(5, () => snapshots.take());
    await Deno.writeTextFile(`${root}/edited.txt`, "one edit\n");
    start = performance.now();
    await snapshots.take();
    const edited = performance.now() - start;
    console.log(
      `snapshot of the bench tree (${count(stats.files)} files): first ${ms(first)}, unchanged ` +
        `${ms(unchanged.ms)} (median of 5; target ≤ 200 ms, ratio ${ratio(unchanged.ms, 200)}), ` +
        `after one edit ${ms(edited)}`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A session of `turns` prompts, each with 5 tool steps of ~2 KB output: its file size and resume time. */
async function sessionFigures(turns: number): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-session-" }));
  try {
    const conversation = new Conversation({ systemPrompt: "s" });
    const writer = new SessionWriter(root, {
      meta: { tern: "bench", provider: "p", model: "m", api: "chat" },
    });
    writer.attach(conversation);
    for (let t = 0; t < turns; t++) {
      conversation.append({ kind: "user", text: `task ${t}: please change the handler and run the tests` });
      for (let s = 0; s < 5; s++) {
        const id = `c${t}_${s}`;
        const toolCalls = [{ id, name: "read_file", arguments: JSON.stringify({ path: `src/f${s}.ts` }) }];
        conversation.append({
          kind: "assistant",
          message: { role: "assistant", content: "Looking.", toolCalls },
        });
        const content = `${"export const x = 1; // a typical line of code\n".repeat(45)}`;
        conversation.append({ kind: "tool_result", callId: id, name: "read_file", content, isError: false });
      }
      conversation.append({
        kind: "assistant",
        message: { role: "assistant", content: "Done: changed it." },
      });
    }
    const bytes = (await Deno.stat(writer.path!)).size;
    const load = await timed(5, () => loadSession(root, writer.id));
    console.log(
      `session of ${turns} prompts (${count(load.value.entries.length)} entries): ${
        count(bytes)
      } bytes on disk, ` +
        `resume (read + parse + repair) ${ms(load.ms)}`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Prints the snapshot and session figures. */
export async function runSnapshotBench(): Promise<void> {
  await snapshotFigures();
  await sessionFigures(10);
  await sessionFigures(100);
}

if (import.meta.main) await runSnapshotBench();
