/**
 * The sealed lines of the REPL's prompt history (`.tern/local/history`): one JSON object a line,
 * `{"prompt":"…","seal":"…"}`. A recalled prompt is sent as the user's own, so a line tern did not write
 * here (a `git pull` can put a whole file there) is never offered.
 */
import { openLine, sealLine, type StateSeal } from "../state/seal.ts";
import { boundStatePath } from "../state/tern_dir.ts";
import { readChecked, writeChecked } from "../state/checked_record.ts";
import { join } from "node:path";

/** The history file's name in the state folder. */
export const HISTORY_FILE = "history";
/** What the lines are sealed as. */
const LABEL = "history";

/** The prompt a history line holds, when it is sealed by this directory's key; undefined otherwise. */
export function historyEntry(seal: StateSeal, line: string): string | undefined {
  const body = openLine(seal, LABEL, line);
  if (body === undefined) return undefined;
  try {
    const prompt = JSON.parse(body)?.prompt;
    return typeof prompt === "string" ? prompt : undefined;
  } catch {
    return undefined;
  }
}

/** The line that keeps `entry`, sealed, with its newline. */
export function historyLine(seal: StateSeal, entry: string): string {
  return sealLine(seal, LABEL, JSON.stringify({ prompt: entry })) + "\n";
}

/** The sealed record of the history file as it was when every line last checked. */
const CHECKED_FILE = "history-checked.json";

/**
 * Whether every whole line of the history file of `root` is sealed here (a torn last one is forgiven).
 * Up to 2,000 lines were checked at every start; now only when the file changed since the last check that
 * passed: its inode, size and ctime (which no program can set back) are kept in a sealed record, made only
 * once the ctime is a second past (Deno gives it in whole seconds), so no later change can share it.
 */
export function historyIsSealed(root: string, seal: StateSeal): boolean {
  const state = boundStatePath(root);
  const file = boundStatePath(root, HISTORY_FILE);
  if (state === undefined || file === undefined) return true;
  try {
    const info = Deno.lstatSync(file);
    if (!info.isFile) return false;
    const now = { ino: info.ino, size: info.size, ctime: info.ctime?.getTime() ?? null };
    const record = join(state, CHECKED_FILE);
    if (now.ctime !== null && sameFacts(readChecked(record, seal, CHECKED_FILE), now)) return true;
    const lines = Deno.readTextFileSync(file).split("\n").slice(0, -1);
    if (!lines.every((line) => historyEntry(seal, line) !== undefined)) return false;
    if (now.ctime !== null && now.ctime < Math.floor(Date.now() / 1000) * 1000) {
      writeChecked(record, seal, CHECKED_FILE, now);
    }
    return true;
  } catch {
    return false;
  }
}

function sameFacts(record: Record<string, unknown> | undefined, now: Record<string, unknown>): boolean {
  return record !== undefined && record.ino === now.ino && record.size === now.size &&
    record.ctime === now.ctime;
}
