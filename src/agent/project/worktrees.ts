/**
 * Worktrees tern makes (`tern -w NAME`, `/worktree`, the task tool's `isolation`): a git worktree on a new
 * branch `tern/NAME`, in `.tern/local/worktrees/NAME/`. Inside the project, because the permission flags
 * (`--allow-read=. --allow-write=.`) reach nothing outside it; inside tern's own bound state folder, which a
 * clone cannot plant (claimState moves a foreign one aside), git ignores (.tern/.gitignore), the file tools
 * and the sandbox keep read-only for the main tree's sessions. The worktree is a project of its own, opened
 * through the same door (its own trust question, state and sessions). Only worktrees in tern's sealed record
 * (worktree_record.ts) are listed, reused or removed.
 */
import { join } from "../../fs/path.ts";
import { userGit } from "./user_git.ts";
import { TERN_GITIGNORE } from "../state/tern_dir.ts";
import { claimState } from "../state/claim_state.ts";
import { checkOwnState } from "../state/check.ts";
import {
  readRecord,
  sameFolder,
  underWorktreeLock,
  type WorktreeEntry,
  worktreesFolder,
  writeRecord,
} from "./worktree_record.ts";

/** A worktree request that cannot be done (bad name, no repository, not tern's): exit 2 on the command line. */
export class WorktreeError extends Error {
  /** The process exit code, as for bad usage. */
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "WorktreeError";
  }
}

/** The branch of worktree NAME. */
export const branchOf = (name: string): string => `tern/${name}`;

/** A worktree tern made, where it is. */
export interface Worktree {
  name: string;
  branch: string;
  /** The worktree's top folder (a real path). */
  path: string;
  /** The project root inside it: its top, or the same sub-folder the main project root is in the repository. */
  root: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** `name` when it can name a folder and a branch (letters, digits, - and _); a WorktreeError otherwise. */
export function checkWorktreeName(name: string): string {
  if (NAME.test(name)) return name;
  throw new WorktreeError(
    `'${name}' cannot name a worktree: use letters, digits, - and _ (up to 63, starting with a letter or digit)`,
  );
}

/** The project root's place in its repository; a WorktreeError when `root` is in none. */
async function repositoryPrefix(root: string): Promise<string> {
  const inside = await userGit(root, ["rev-parse", "--is-inside-work-tree", "--show-prefix"]);
  const [answer, prefix = ""] = inside.stdout.split("\n");
  if (!inside.ok || answer !== "true") {
    throw new WorktreeError(
      "worktrees need a git repository, and this directory is not in one (git init, or cd into a repository)",
    );
  }
  return prefix;
}

function worktreeOf(root: string, name: string, entry: WorktreeEntry): Worktree {
  const path = join(worktreesFolder(root), name);
  return { name, branch: entry.branch, path, root: entry.prefix ? join(path, entry.prefix) : path };
}

/**
 * The worktree NAME of the project at `root`: the one tern made before (reused), or a new one on branch
 * `tern/NAME` from HEAD (or that branch, when it exists). Throws a WorktreeError for what cannot be done.
 * The main project's state is claimed and checked first, as the door does (its record is read from there).
 */
export async function openWorktree(
  root: string,
  name: string,
  warn: (line: string) => void,
): Promise<{ worktree: Worktree; made: boolean }> {
  checkWorktreeName(name);
  const prefix = await repositoryPrefix(root);
  for (const note of [claimState(root), checkOwnState(root)]) if (note) warn(note);
  return await underWorktreeLock(root, async () => {
    const record = readRecord(root);
    const path = join(worktreesFolder(root), name);
    const known = record[name];
    if (known) {
      const now = sameFolder(path, known);
      if (now === "same") return { worktree: worktreeOf(root, name, known), made: false };
      if (now === "other") throw notTernsFolder(name);
      await userGit(root, ["worktree", "prune"]); // it was deleted by hand: made again below
    } else if (present(path)) {
      throw new WorktreeError(
        `.tern/local/worktrees/${name} is there, but tern did not make it; tern leaves it alone (choose another name)`,
      );
    }
    const branch = branchOf(name);
    const exists = (await userGit(root, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).ok;
    const add = exists
      ? ["worktree", "add", "--", path, branch]
      : ["worktree", "add", "-b", branch, "--", path, "HEAD"];
    const made = await userGit(root, add);
    if (!made.ok) {
      const why = made.stderr.split("\n").filter((line) => line.trim() !== "").at(-1) ?? "git failed";
      throw new WorktreeError(`git could not make worktree ${name}: ${why.replace(/^fatal: /, "")}`);
    }
    const info = Deno.lstatSync(path);
    const entry = { branch, prefix, dev: info.dev, ino: info.ino ?? 0, created: new Date().toISOString() };
    writeRecord(root, { ...record, [name]: entry });
    return { worktree: worktreeOf(root, name, entry), made: true };
  });
}

function present(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function notTernsFolder(name: string): WorktreeError {
  return new WorktreeError(
    `.tern/local/worktrees/${name} is no longer the folder tern made (replaced, or a link); tern leaves it alone`,
  );
}

/** What `tern worktrees` shows of one. */
export interface WorktreeStatus extends Worktree {
  /** Changed files (uncommitted, untracked included), or undefined when git could not say. */
  changes?: number;
  /** Why it cannot be used: gone, or no longer the folder tern made. */
  problem?: string;
}

/** The worktrees tern made in the project at `root`, by name. */
export async function listWorktrees(root: string): Promise<WorktreeStatus[]> {
  const record = readRecord(root);
  const out: WorktreeStatus[] = [];
  for (const [name, entry] of Object.entries(record).sort(([a], [b]) => a.localeCompare(b))) {
    const worktree = worktreeOf(root, name, entry);
    const now = sameFolder(worktree.path, entry);
    if (now !== "same") {
      out.push({
        ...worktree,
        problem: now === "missing" ? "its folder is gone" : "not the folder tern made",
      });
      continue;
    }
    const changes = await changedFiles(worktree.path);
    out.push({ ...worktree, ...(changes !== undefined && { changes }) });
  }
  return out;
}

/** Files changed in the worktree at `path`, untracked ones included, but not the `.tern/.gitignore` tern wrote. */
export async function changedFiles(path: string): Promise<number | undefined> {
  const status = await userGit(path, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
  if (!status.ok) return undefined;
  const entries = status.stdout.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (entries[i] === "") continue;
    paths.push(entries[i].slice(3));
    if (/^[RC]/.test(entries[i])) i++; // a rename or copy: its old path follows as an entry of its own
  }
  return paths.filter((file) => !ternsOwnGitignore(path, file)).length;
}

/** Whether `file` (relative to the worktree's top) is a `.tern/.gitignore` holding just what tern writes. */
export function ternsOwnGitignore(top: string, file: string): boolean {
  if (file !== ".tern/.gitignore" && !file.endsWith("/.tern/.gitignore")) return false;
  try {
    return Deno.readTextFileSync(join(top, file)) === TERN_GITIGNORE;
  } catch {
    return false;
  }
}

/**
 * Removes worktree NAME (its folder; the branch is kept) and says what was done. Refuses a name tern did not
 * make, a folder that is no longer the one it made, and one with changes unless `force`.
 */
export async function removeWorktree(
  root: string,
  name: string,
  options: { force?: boolean },
): Promise<string> {
  checkWorktreeName(name);
  const notMine = () =>
    new WorktreeError(
      `tern made no worktree named ${name} here; it removes only its own (tern worktrees lists them)`,
    );
  if (!readRecord(root)[name]) throw notMine();
  return await underWorktreeLock(root, async () => {
    const record = readRecord(root);
    const entry = record[name];
    if (!entry) throw notMine();
    const { path, branch } = worktreeOf(root, name, entry);
    const now = sameFolder(path, entry);
    if (now === "other") throw notTernsFolder(name);
    if (now === "same") {
      const changes = await changedFiles(path);
      if (changes !== 0 && !options.force) {
        const what = changes === undefined ? "changes git cannot count" : `${changes} changed file(s)`;
        throw new WorktreeError(
          `worktree ${name} has ${what}; commit them on ${branch}, or pass --force to discard them`,
        );
      }
      // Forced: tern's own count decided above (the .tern/.gitignore tern wrote is no change of the user's).
      const removed = await userGit(root, ["worktree", "remove", "--force", "--", path]);
      if (!removed.ok) {
        throw new WorktreeError(
          `git could not remove worktree ${name}: ${removed.stderr.trim().split("\n")[0]}`,
        );
      }
    } else {
      await userGit(root, ["worktree", "prune"]);
    }
    const { [name]: _gone, ...rest } = record;
    writeRecord(root, rest);
    return `removed worktree ${name}; its branch ${branch} is kept (git branch -D ${branch} deletes it)`;
  });
}
