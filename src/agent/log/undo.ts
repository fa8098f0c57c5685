/**
 * Undo: the snapshot taken before each prompt, and going back to it. The files come back from the shadow
 * repository; the conversation rewinds with a `rewind` entry (the log stays append-only).
 */
import type { Conversation, Entry } from "./conversation.ts";
import type { SnapshotChanges, Snapshots } from "./snapshots.ts";

/** What `/undo` would go back to: the snapshot's entry, its prompt and the files changed since. */
export interface UndoPlan {
  /** The snapshot entry's index in the log. */
  index: number;
  tree: string;
  /** The prompt that followed the snapshot. */
  prompt: string;
  /** Null when git is missing (only the conversation can rewind). */
  changes: SnapshotChanges | null;
  /**
   * Paths the restore would overwrite that changed after that turn ended (by the user, or anything but
   * the turn): they are asked about before they are overwritten.
   */
  changedSince: string[];
}

/** Snapshots a files-only undo already used, per conversation (they stay in the log, not in the way). */
const used = new WeakMap<Conversation, Set<number>>();
/** The tree at the end of each turn, by the index of its snapshot entry (this process only). */
const ended = new WeakMap<Conversation, Map<number, string>>();
/** The end-of-turn snapshot still being taken, per conversation. */
const ending = new WeakMap<Conversation, Promise<void>>();

/** Takes the snapshot that undo returns to; called before each prompt is handed to the loop. */
export async function snapshotBeforeTask(conversation: Conversation, snapshots: Snapshots): Promise<void> {
  conversation.append({ kind: "snapshot", tree: await snapshots.take() });
}

/**
 * Starts taking the tree as the turn left it, so undo can tell what changed after the turn. It runs in the
 * background (the prompt comes back at once; keys typed meanwhile reach it) and `planUndo` waits for it.
 */
export function snapshotAfterTask(conversation: Conversation, snapshots: Snapshots): void {
  const index = conversation.entries.findLastIndex((entry) => entry.kind === "snapshot");
  if (index < 0) return;
  const taking = snapshots.take().then((tree) => {
    const trees = ended.get(conversation) ?? new Map<number, string>();
    trees.set(index, tree);
    ended.set(conversation, trees);
  }, () => {});
  ending.set(conversation, taking);
}

/** The latest snapshot not undone (and not used by a files-only undo), summarised or not, or null. */
export async function planUndo(
  conversation: Conversation,
  snapshots: Snapshots | null,
): Promise<UndoPlan | null> {
  // A summary (/compact) hides the turns it replaced from the model, not from undo: going back to a
  // snapshot before it rewinds the summary too.
  const { indices } = conversation.live({ summarised: true });
  const entries = conversation.entries;
  const skip = used.get(conversation) ?? new Set();
  const index = indices.findLast((i) => entries[i].kind === "snapshot" && !skip.has(i));
  if (index === undefined) return null;
  const { tree } = entries[index] as Extract<Entry, { kind: "snapshot" }>;
  const next = entries.slice(index).find((entry) => entry.kind === "user");
  await ending.get(conversation);
  const changes = snapshots ? await snapshots.changes(tree) : null;
  const after = ended.get(conversation)?.get(index);
  const later = snapshots && after && changes ? (await snapshots.changes(after)).paths : [];
  const changedSince = later.filter((path) => changes?.paths.includes(path));
  return { index, tree, prompt: next?.kind === "user" ? next.text : "", changes, changedSince };
}

/** Carries out `plan`: restores the files and/or rewinds the conversation. */
export async function applyUndo(
  conversation: Conversation,
  snapshots: Snapshots | null,
  plan: UndoPlan,
  what: { files: boolean; conversation: boolean; keepChangedSince?: boolean },
): Promise<void> {
  if (what.files && snapshots) {
    const keep = what.keepChangedSince && plan.changedSince.length > 0
      ? { tree: await snapshots.take(), paths: plan.changedSince }
      : undefined;
    await snapshots.restore(plan.tree, keep);
  }
  if (what.conversation) conversation.append({ kind: "rewind", to: plan.index });
  else used.set(conversation, (used.get(conversation) ?? new Set()).add(plan.index));
}
