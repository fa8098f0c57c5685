/**
 * The sealed lines of the REPL's prompt history (`.tern/local/history`): one JSON object a line,
 * `{"prompt":"…","seal":"…"}`. A recalled prompt is sent as the user's own, so a line tern did not write
 * here (a `git pull` can put a whole file there) is never offered.
 */
import { openLine, readSealedFile, sealLine, type StateSeal, writeSealedFile } from "../state/seal.ts";
import { boundStatePath } from "../state/tern_dir.ts";
import { join } from "../../fs/path.ts";

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
export const HISTORY_CHECKED = "history-checked.json";

/**
 * Whether every whole line of the history file of `root` is sealed here (a torn last one is forgiven).
 * Up to 2,000 lines were checked at every start; now only when the file changed since the last check that
 * passed: its inode, size and ctime (which no program can set back) are kept in a sealed record, made only
 * once the ctime is a second past (Deno gives it in whole seconds), so no later change can share it.
 */
export function historyIsSealed(root: string, seal: StateSeal): boolean {
  const state = boundStatePath(root);
  if (state === undefined) return true;
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(join(state, HISTORY_FILE));
  } catch {
    return true; // no history yet
  }
  if (!info.isFile) return false;
  const now = { ino: info.ino, size: info.size, ctime: info.ctime?.getTime() ?? null };
  if (now.ctime !== null && sameFacts(readSealedFile(seal, state, HISTORY_CHECKED), now)) return true;
  try {
    const lines = Deno.readTextFileSync(join(state, HISTORY_FILE)).split("\n").slice(0, -1);
    if (!lines.every((line) => historyEntry(seal, line) !== undefined)) return false;
  } catch {
    return false;
  }
  if (now.ctime !== null && now.ctime < Math.floor(Date.now() / 1000) * 1000) {
    try {
      writeSealedFile(seal, state, HISTORY_CHECKED, now);
    } catch { /* checked again next time */ }
  }
  return true;
}

function sameFacts(record: Record<string, unknown> | undefined, now: Record<string, unknown>): boolean {
  return record !== undefined && record.ino === now.ino && record.size === now.size &&
    record.ctime === now.ctime;
}
