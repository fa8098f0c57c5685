/**
 * Forking a saved session (`tern -r ID --fork`, `/fork [N]`): a new session file with a new id that starts
 * as a copy of the original, whole or cut after its first N prompts; the original file is never written.
 */
import { join, relative } from "../../fs/path.ts";
import type { Entry } from "./conversation.ts";
import { type LoadedSession, newSessionId, SessionError, type SessionHeader } from "./session_file.ts";
import { parseSession } from "./session_load.ts";
import { stateDir } from "../state/tern_dir.ts";
import { sealLine, stateSeal } from "../state/seal.ts";
import { sessionLabel } from "./_session_file_seal.ts";

/** How many prompts of the user `entries` hold (tern's own user-role words not counted). */
export function promptCount(entries: readonly Entry[]): number {
  return entries.filter((entry) => entry.kind === "user" && entry.from !== "tern").length;
}

/**
 * Writes the copy of `loaded` and returns it, loaded. With `prompts`, the copy keeps the conversation up to
 * the turn of its N-th prompt, and forgets the files the model saw (they may have changed since that turn:
 * the model reads them again before it edits).
 */
export function forkSession(
  root: string,
  loaded: LoadedSession,
  options: { prompts?: number } = {},
): LoadedSession {
  const total = promptCount(loaded.entries);
  const keep = options.prompts ?? total;
  if (options.prompts !== undefined && (!Number.isSafeInteger(keep) || keep < 1 || keep > total)) {
    throw new SessionError(`session ${loaded.header.id} has ${total} prompt(s); fork after 1 to ${total}`);
  }
  const cut = keep < total;
  const entries = cut ? loaded.entries.slice(0, startOfPrompt(loaded.entries, keep + 1)) : loaded.entries;
  const header: SessionHeader = {
    ...loaded.header,
    id: newSessionId(),
    startedAt: new Date().toISOString(),
    forkedFrom: loaded.header.id,
  };
  const lines: unknown[] = [header];
  if (!cut) {
    for (const [real, snapshot] of loaded.files) {
      lines.push({ type: "file", path: relative(root, real), snapshot });
    }
  }
  for (const entry of entries) lines.push({ type: "entry", entry });
  const path = join(stateDir(root, "sessions"), `${header.id}.jsonl`);
  // Sealed like every session line tern writes, or the next start would move the copy aside.
  const seal = stateSeal(root);
  if (seal === undefined) {
    throw new SessionError("tern's state folder has no key: the fork could not be sealed");
  }
  const label = sessionLabel(header.id);
  const text = lines.map((line) => sealLine(seal, label, JSON.stringify(line)) + "\n").join("");
  Deno.writeTextFileSync(path, text, { createNew: true });
  return parseSession(text, path, root);
}

/** The index of the entry that is the user's `n`-th prompt (1-based), or the length when there is none. */
function startOfPrompt(entries: readonly Entry[], n: number): number {
  let seen = 0;
  for (const [i, entry] of entries.entries()) {
    if (entry.kind === "user" && entry.from !== "tern" && ++seen === n) return i;
  }
  return entries.length;
}
