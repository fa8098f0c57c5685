/**
 * The sealed lines of the REPL's prompt history (`.tern/local/history`): one JSON object a line,
 * `{"prompt":"…","seal":"…"}`. A recalled prompt is sent as the user's own, so a line tern did not write
 * here (a `git pull` can put a whole file there) is never offered.
 */
import { openLine, sealLine, type StateSeal } from "../state/seal.ts";
import { boundStatePath } from "../state/tern_dir.ts";

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

/** Whether every whole line of the history file of `root` is sealed here (a torn last one is forgiven). */
export function historyIsSealed(root: string, seal: StateSeal): boolean {
  const file = boundStatePath(root, HISTORY_FILE);
  if (file === undefined) return true;
  try {
    if (!Deno.lstatSync(file).isFile) return false;
    const lines = Deno.readTextFileSync(file).split("\n").slice(0, -1);
    return lines.every((line) => historyEntry(seal, line) !== undefined);
  } catch {
    return false;
  }
}
