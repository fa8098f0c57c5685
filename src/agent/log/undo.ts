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

/** One turn `/rewind` can go back to: its snapshot entry's index and its prompt, oldest first. */
export interface RewindTarget {
  index: number;
  prompt: string;
}

/** The turns still in the conversation that have a snapshot (and were not used by a files-only undo). */
export function rewindTargets(conversation: Conversation): RewindTarget[] {
  const entries = conversation.entries;
  const skip = used.get(conversation) ?? new Set();
  // A summary (/compact) hides the turns it replaced from the model, not from undo: going back to a
  // snapshot before it rewinds the summary too.
  return conversation.live({ summarised: true }).indices
    .filter((i) => entries[i].kind === "snapshot" && !skip.has(i))
    .map((index) => {
      const next = entries.slice(index).find((entry) => entry.kind === "user");
      return { index, prompt: next?.kind === "user" ? next.text : "" };
    });
}

/**
 * What going back to before a turn means: the latest turn (`/undo`), or the one whose snapshot entry is
 * `at` (`/rewind`). Null when there is none.
 */
export async function planUndo(
  conversation: Conversation,
  snapshots: Snapshots | null,
  at?: number,
): Promise<UndoPlan | null> {
  const targets = rewindTargets(conversation);
  const target = at === undefined ? targets.at(-1) : targets.find((candidate) => candidate.index === at);
  if (target === undefined) return null;
  const { index } = target;
  const { tree } = conversation.entries[index] as Extract<Entry, { kind: "snapshot" }>;
  await ending.get(conversation);
  const changes = snapshots ? await snapshots.changes(tree) : null;
  const later = snapshots && changes
    ? await changedOutsideTurns(conversation, snapshots, targets.filter((t) => t.index >= index))
    : [];
  const changedSince = later.filter((path) => changes?.paths.includes(path));
  return { index, tree, prompt: target.prompt, changes, changedSince };
}

/**
 * The paths that changed while none of `turns` ran: between one turn's end and the next one's start, and
 * since the last one ended (the user's own edits). A turn whose end was not seen (another process) is
 * passed over.
 */
async function changedOutsideTurns(
  conversation: Conversation,
  snapshots: Snapshots,
  turns: RewindTarget[],
): Promise<string[]> {
  const trees = ended.get(conversation);
  const paths = new Set<string>();
  for (const [i, turn] of turns.entries()) {
    const end = trees?.get(turn.index);
    if (end === undefined) continue;
    const next = turns[i + 1];
    const changed = next === undefined
      ? (await snapshots.changes(end)).paths
      : await snapshots.changedBetween(end, (conversation.entries[next.index] as { tree: string }).tree);
    for (const path of changed) paths.add(path);
  }
  return [...paths];
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
  else {
    // Files only: the turns from the target on are passed over by the next undo (their files are back).
    const skip = used.get(conversation) ?? new Set();
    for (const target of rewindTargets(conversation)) if (target.index >= plan.index) skip.add(target.index);
    used.set(conversation, skip);
  }
}
