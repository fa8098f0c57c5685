/**
 * The protected paths of one sandboxed command (src/config/protected_paths.ts): what exists is mounted
 * read-only; the parents that stay writable (`.git`, `.vscode`) are mounted onto themselves, so a command
 * cannot rename them away and build a writable copy; what is missing is covered by an empty read-only folder
 * (a folder, not a file: `git add -A` skips an empty folder but fails on a device node), whose mount point
 * bwrap leaves on the host, so it is removed again after the command. Then the protected set is compared
 * with its state before the command and put back (protected_check.ts). A background process (long-lived)
 * skips that comparison: over its life it would undo the user's own changes made meanwhile; only what the
 * mounts cannot cover is removed if it appeared. A placeholder stays while any running command relies on it.
 */
import { dirname, join } from "node:path";
import { isEnvFileName, SANDBOX_PROTECTED } from "../../config/protected_paths.ts";
import { type ProtectedRecord, recordProtected, restoreProtected } from "./protected_check.ts";

/** What the sandbox needs, and the clean-up to run when the command has ended. */
export interface GuardedPaths {
  /** Writable folders mounted onto themselves: they cannot be renamed inside the sandbox. */
  pinned: string[];
  readOnly: string[];
  guardMissing: { files: string[]; dirs: string[] };
  /**
   * Removes the placeholders bwrap created, then puts back what the command changed among the protected
   * paths; resolves with one phrase per path put back or removed (empty when nothing was touched).
   */
  cleanUp(): Promise<string[]>;
}

/** lstat, or null where nothing is. Synchronous: a few dozen of these run for every command, and a sync
 * lstat costs microseconds where an async one costs a round trip through the event loop. */
function lstat(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * Placeholders (absolute paths) that running commands rely on, and how many: another command's start must
 * not take one for a leftover, and only the last one out removes it (removing a mount point on the host
 * would undo its mount inside the sandbox that uses it).
 */
const inUse = new Map<string, number>();

function hold(paths: string[]): void {
  for (const path of paths) inUse.set(path, (inUse.get(path) ?? 0) + 1);
}

/** Lets go of `paths`; resolves with those no running command relies on any more. */
function release(paths: string[]): string[] {
  return paths.filter((path) => {
    const left = (inUse.get(path) ?? 1) - 1;
    if (left > 0) inUse.set(path, left);
    else inUse.delete(path);
    return left <= 0;
  });
}

/** True for an empty folder: at a protected file's name it is a placeholder a killed run left behind. */
function isEmptyDir(path: string): boolean {
  try {
    for (const _ of Deno.readDirSync(path)) return false;
  } catch {
    return false;
  }
  return true;
}

/**
 * The guarded paths of `root` now (and the record of the protected set to compare with afterwards, unless
 * `compare` is false: a background process).
 */
export async function guardedPaths(root: string, options: { compare?: boolean } = {}): Promise<GuardedPaths> {
  const pinned: string[] = [];
  const readOnly: string[] = [];
  const dirs: string[] = [];
  /** Placeholders of other running commands this one binds read-only (they must stay while it runs). */
  const borrowed: string[] = [];
  /** Missing names the mounts cannot cover. */
  const uncovered: string[] = [];
  const git = await lstat(join(root, ".git"));
  const names: string[] = [...SANDBOX_PROTECTED.dirs, ...SANDBOX_PROTECTED.files];
  for await (const entry of Deno.readDir(root)) {
    if (isEnvFileName(entry.name) && !names.includes(entry.name)) names.push(entry.name);
  }
  if (git?.isDirectory) names.push(...SANDBOX_PROTECTED.git.map((name) => `.git/${name}`));
  else if (git?.isFile) readOnly.push(".git"); // a gitdir pointer: rewritten, it would lead git elsewhere
  for (const name of SANDBOX_PROTECTED.pinned) {
    if ((await lstat(join(root, name)))?.isDirectory) pinned.push(name);
  }
  const infos = await Promise.all(names.map((name) => lstat(join(root, name))));
  for (const [i, name] of names.entries()) {
    const path = join(root, name);
    const info = infos[i];
    const fileName = (SANDBOX_PROTECTED.files as readonly string[]).includes(name) || isEnvFileName(name);
    if (inUse.has(path)) borrowed.push(path);
    if (info?.isDirectory && fileName && !inUse.has(path) && await isEmptyDir(path)) {
      await Deno.remove(path).catch(() => {});
    } else if (info?.isFile || info?.isDirectory) {
      // Only plain files and folders: bwrap refuses a source under a file, and a link is not what it names.
      readOnly.push(name);
      continue;
    } else if (info !== null) continue;
    // Missing: not to be created. `commondir` and `config.worktree` cannot be covered (git would read the
    // placeholder and fail): the comparison after the command removes them if they appear.
    if (name === ".git/commondir" || name === ".git/config.worktree" || name === ".git/config") {
      uncovered.push(name);
      continue;
    }
    const parent = await lstat(dirname(path));
    // A parent that is missing, a file or a link cannot hold a mount point: cover the parent instead.
    if (parent?.isDirectory) dirs.push(name);
    else if (parent === null && dirname(name) === ".vscode") dirs.push(".vscode");
  }
  const placeholders = [...new Set(dirs)];
  hold([...placeholders.map((name) => join(root, name)), ...borrowed]);
  const record: ProtectedRecord | undefined = options.compare === false
    ? undefined
    : await recordProtected(root);
  const cleanUp = async () => {
    for (const path of release([...placeholders.map((name) => join(root, name)), ...borrowed])) {
      // Only what is still the empty placeholder: anything else is not ours to remove.
      if ((await lstat(path))?.isDirectory && await isEmptyDir(path)) await Deno.remove(path).catch(() => {});
    }
    if (record) return await restoreProtected(root, record);
    return await removeAppeared(root, uncovered);
  };
  return { pinned, readOnly, guardMissing: { files: [], dirs: placeholders }, cleanUp };
}

/** Removes those of `names` (missing at the start, and not coverable by a mount) that exist now; says which. */
async function removeAppeared(root: string, names: string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const name of names) {
    if ((await lstat(join(root, name))) === null) continue;
    await Deno.remove(join(root, name), { recursive: true }).catch(() => {});
    removed.push(`removed ${name}`);
  }
  return removed;
}
