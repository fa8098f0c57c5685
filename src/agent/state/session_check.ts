/**
 * The start-up check of the session files: each first line must carry this directory's seal, or the file is
 * moved aside (check.ts). A project gathers hundreds of sessions, and reading and sealing each header at
 * every start grew the start with them (0.2–0.3 ms a file), so only files changed since the last check are
 * read. "Changed" is the file's ctime, which the kernel sets on every creation, write, rename or chmod and no
 * program can set back (git, tar, cp -p and touch set mtime, never ctime). The time checked up to is kept
 * sealed in `sessions-checked.json`; one that is missing, or does not check, means every file is read.
 * Files are still checked line by line on load (session_load.ts): this check is what says it at start.
 */
import { join } from "../../fs/path.ts";
import { openLine, readSealedFile, type StateSeal, writeSealedFile } from "./seal.ts";
import { sessionLabel } from "../log/_session_file_seal.ts";
import { boundStatePath } from "./tern_dir.ts";

/** The sealed record of how far the session files were checked (ms since the epoch, of their ctimes). */
export const SESSIONS_CHECKED = "sessions-checked.json";
/** The first line of a session file is read up to this many bytes. */
const HEADER_BYTES = 64 * 1024;

/** Session files (relative to the state folder) changed since the last check whose first line is not sealed. */
export function unsealedSessions(root: string, seal: StateSeal): string[] {
  const state = boundStatePath(root);
  if (state === undefined) return [];
  const dir = join(state, "sessions");
  const recorded = readSealedFile(seal, state, SESSIONS_CHECKED)?.upTo;
  const since = typeof recorded === "number" ? recorded : -Infinity;
  const failed: string[] = [];
  let upTo = since;
  try {
    for (const item of Deno.readDirSync(dir)) {
      if (!item.name.endsWith(".jsonl")) continue;
      const path = join(dir, item.name);
      const changed = changedAt(path);
      // Equal times are read again: Deno gives ctime in whole seconds, and a file changed in the last
      // check's second is not skipped.
      if (changed !== undefined && changed < since) continue;
      const label = sessionLabel(item.name.slice(0, -".jsonl".length));
      const header = item.isFile ? firstLine(path) : "";
      // No whole first line yet (another tern is writing it, or a torn file): nothing there can be loaded,
      // and its next write changes its ctime, so it is read again.
      if (header === undefined) continue;
      if (openLine(seal, label, header) === undefined) failed.push(`sessions/${item.name}`);
      else if (changed !== undefined && changed > upTo) upTo = changed;
    }
  } catch { /* unreadable folder: nothing is read from it either */ }
  // Kept only when all passed: a file that could not be moved aside is said again at the next start.
  if (failed.length === 0 && upTo > since) keep(seal, state, { upTo });
  return failed;
}

/** The file's ctime (ms), or undefined where the system gives none (then it is always read). */
function changedAt(path: string): number | undefined {
  try {
    return Deno.lstatSync(path).ctime?.getTime();
  } catch {
    return undefined;
  }
}

/** Keeps the record; one not kept only means the next start reads the files again. */
function keep(seal: StateSeal, state: string, data: Record<string, unknown>): void {
  try {
    writeSealedFile(seal, state, SESSIONS_CHECKED, data);
  } catch { /* read again next time */ }
}

/**
 * The first line of `file` (no more than HEADER_BYTES); undefined when it has no newline yet, and "" for a
 * line that is not UTF-8 or too long (which no seal checks).
 */
function firstLine(file: string): string | undefined {
  let handle: Deno.FsFile | undefined;
  try {
    handle = Deno.openSync(file, { read: true });
    const buffer = new Uint8Array(HEADER_BYTES);
    let filled = 0;
    while (filled < buffer.length) {
      const read = handle.readSync(buffer.subarray(filled));
      if (read === null || read === 0) break;
      filled += read;
    }
    const newline = buffer.subarray(0, filled).indexOf(0x0a);
    if (newline < 0) return filled === buffer.length ? "" : undefined;
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, newline));
  } catch {
    return "";
  } finally {
    handle?.close();
  }
}
