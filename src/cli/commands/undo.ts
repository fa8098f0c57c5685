/**
 * `/undo`: puts back every file the last turn changed (by file tools and shell commands alike, from the
 * snapshot taken before its prompt) and rewinds the conversation to before that prompt. Asks first,
 * showing the files; the user may pick files only or the conversation only. Again goes one more turn back.
 */
import type { Conversation, Entry } from "../../agent/conversation.ts";
import type { SlashCommand, SlashOutcome } from "../slash_commands.ts";
import type { Snapshots } from "../../agent/snapshots.ts";

/** Snapshots a files-only undo already used, per conversation (they stay in the log, not in the way). */
const used = new WeakMap<Conversation, Set<number>>();

/** The latest snapshot still in the conversation (and not used by a files-only undo), with its prompt. */
function latestSnapshot(conversation: Conversation): { index: number; tree: string; prompt: string } | null {
  const { indices } = conversation.live();
  const entries = conversation.entries;
  const skip = used.get(conversation) ?? new Set();
  const index = indices.findLast((i) => entries[i].kind === "snapshot" && !skip.has(i));
  if (index === undefined) return null;
  const { tree } = entries[index] as Extract<Entry, { kind: "snapshot" }>;
  const next = entries.slice(index).find((entry) => entry.kind === "user");
  return { index, tree, prompt: next?.kind === "user" ? next.text : "" };
}

/** Takes the snapshot that `/undo` returns to; called before each prompt is handed to the loop. */
export async function snapshotBeforeTask(conversation: Conversation, snapshots: Snapshots): Promise<void> {
  conversation.append({ kind: "snapshot", tree: await snapshots.take() });
}

/** `/undo` over the run's snapshots (none when git is missing: then only the conversation rewinds). */
export const undoCommand: SlashCommand = {
  name: "/undo",
  help: "undo the last turn: restore the files it changed (shell commands included) and rewind to before it",
  run: async (ctx): Promise<SlashOutcome> => {
    const { conversation } = ctx.current;
    const latest = latestSnapshot(conversation);
    if (latest === null || !ctx.app) {
      ctx.screen.print("Nothing to undo in this conversation.");
      return "continue";
    }
    const shadow = ctx.app.snapshots;
    const changes = shadow ? await shadow.changes(latest.tree) : null;
    ctx.screen.print(`Undo the turn "${latest.prompt.replace(/\s+/g, " ").slice(0, 70)}"`);
    if (changes === null) {
      ctx.screen.print("git is not installed: only the conversation can be rewound.", "yellow");
    } else if (changes.paths.length === 0) ctx.screen.print("No file changed since that prompt.", "dim");
    else ctx.screen.print(`Files to restore:\n${changes.stat}`);
    const choices = changes?.paths.length
      ? "[a]ll, [f]iles only, [c]onversation only, [n]o"
      : "[c]onversation, [n]o";
    const answer = (await ctx.app.ask(`${choices}? `))?.trim().toLowerCase() ?? "n";
    const files = changes?.paths.length && (answer === "a" || answer === "f");
    const talk = answer === "a" || answer === "c" || (answer === "y" && !changes?.paths.length);
    if (!files && !talk) {
      ctx.screen.print("Nothing undone.", "dim");
      return "continue";
    }
    if (files) await shadow!.restore(latest.tree);
    if (talk) conversation.append({ kind: "rewind", to: latest.index });
    else used.set(conversation, (used.get(conversation) ?? new Set()).add(latest.index));
    const what = [files && `${changes!.paths.length} file(s) restored`, talk && "conversation rewound"];
    ctx.screen.print(`Undone: ${what.filter(Boolean).join(", ")}.`, "green");
    return "continue";
  },
};
