/**
 * The start-up check of tern's own state: every file tern would read back from `.tern/local/` must carry
 * this directory's seal (state_seal.ts). What fails was written by someone else (a `git pull`, checkout,
 * merge, stash or unpacked archive) or by a tern from before seals: it is moved aside to `.tern/local/aside/`
 * (never deleted, never read) and said in one line. Files from before seals are not migrated: nothing can
 * tell a file an older tern wrote from one a `git pull` wrote into the same bound folder (git sets the
 * times, and neither is sealed), so the trust question comes once more and old sessions stay aside.
 * `settings.json` is the exception, being the one file people edit by hand (own_settings.ts). Session files
 * are checked by their first line here (those changed since the last check: session_check.ts), every line
 * on load.
 */
import { join } from "../../fs/path.ts";
import { HISTORY_CHECKED, HISTORY_FILE, historyIsSealed } from "../log/history_seal.ts";
import { claimKey, moveAside, openJson, type StateSeal } from "./seal.ts";
import { snapshotsSealed } from "../log/snapshot_seal.ts";
import { SESSIONS_CHECKED, unsealedSessions } from "./session_check.ts";
import { boundStatePath, STATE_DIR } from "./tern_dir.ts";

/** Whole JSON files, each sealed as its own name (a check record that fails is moved aside like the rest). */
const JSON_FILES = ["trust.json", "ignored.json", "worktrees.json", SESSIONS_CHECKED, HISTORY_CHECKED];

/** Checks tern's state in `root`, moves aside what is not sealed here; one line for the user, or undefined. */
export function checkOwnState(root: string): string | undefined {
  const { seal, note } = claimKey(root);
  if (seal === undefined) return note;
  const failed = [
    ...JSON_FILES.filter((name) => !jsonSealed(root, seal, name)),
    ...(historyIsSealed(root, seal) ? [] : [HISTORY_FILE]),
    ...unsealedSessions(root, seal),
    ...(snapshotsSealed(root) ? [] : ["snapshots"]),
  ];
  const moved = failed.map((rel) => ({ rel, to: moveAside(root, rel) }))
    .filter(({ rel, to }) => to !== undefined || present(root, rel)); // gone: another tern moved it first
  if (moved.length === 0) return note;
  const names = moved.map(({ rel, to }) => `${STATE_DIR}/${rel}${to ? "" : " (could not be moved)"}`);
  const line = `moved aside ${names.join(", ")} (to ${STATE_DIR}/aside/): tern did not write ` +
    `${moved.length === 1 ? "it" : "them"} in this directory (a git pull, checkout or archive, or a tern ` +
    "from before state was sealed), so nothing there is trusted, run or resumed";
  return note ? `${note}; ${line}` : line;
}

function present(root: string, rel: string): boolean {
  try {
    Deno.lstatSync(join(root, STATE_DIR, rel));
    return true;
  } catch {
    return false;
  }
}

function jsonSealed(root: string, seal: StateSeal, name: string): boolean {
  const file = boundStatePath(root, name);
  if (file === undefined) return true;
  try {
    return Deno.lstatSync(file).isFile && openJson(seal, name, Deno.readTextFileSync(file)) !== undefined;
  } catch {
    return false;
  }
}
