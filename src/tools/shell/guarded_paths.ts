/**
 * The protected paths of one sandboxed command (src/config/protected_paths.ts): what exists is mounted
 * read-only; the parents that stay writable (`.git`, `.vscode`) are mounted onto themselves, so a command
 * cannot rename them away and build a writable copy; what is missing is covered by an empty read-only folder
 * (a folder, not a file: `git add -A` skips an empty folder but fails on a device node), whose mount point
 * bwrap leaves on the host, so it is removed again after the command (or kept in tern's pool of them,
 * placeholder_pool.ts). Then the protected set is compared
 * with its state before the command and put back (protected_check.ts). A background process (long-lived)
 * skips that comparison: over its life it would undo the user's own changes made meanwhile; only what the
 * mounts cannot cover is removed as it appears (uncovered_watch.ts) and at its end. A placeholder stays while any running command relies on it,
 * in this tern process or another (sandbox_claims.ts). The git surface beyond `.git/config` and `.git/hooks`
 * (hooks folder, includes, nested repositories) is guarded too (git_surface.ts).
 */
import { dirname, isAbsolute, join, resolve } from "../../fs/path.ts";
import { isEnvFileName, SANDBOX_PROTECTED, SHELL_STARTUP_FILES } from "../../config/protected_paths.ts";
import {
  entryAt,
  type Listings,
  type ProtectedRecord,
  recordProtected,
  restoreProtected,
} from "./protected_check.ts";
import { placeFromPool, stowPlaceholder } from "./placeholder_pool.ts";
import { type GitSurface, gitSurface, undoGitSurface } from "./git_surface.ts";
import { addClaim, claimsFolder, dropClaim, heldByOthers, otherClaims, underLock } from "./sandbox_claims.ts";
import { removeAppeared, undoDeadClaims } from "./sandbox_sweep.ts";
import { watchUncovered } from "./uncovered_watch.ts";
import { existsNoFollow } from "../../fs/path_basics.ts";

/** What the sandbox needs, and the clean-up to run when the command has ended. */
export interface GuardedPaths {
  /** Writable folders mounted onto themselves: they cannot be renamed inside the sandbox. */
  pinned: string[];
  readOnly: string[];
  guardMissing: { dirs: string[] };
  /**
   * Removes the placeholders bwrap created, then puts back what the command changed among the protected
   * paths; resolves with one phrase per path put back or removed (empty when nothing was touched).
   */
  cleanUp(): Promise<string[]>;
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

function isStartupFile(name: string): boolean {
  return (SHELL_STARTUP_FILES as readonly string[]).includes(name);
}

const homes = new Map<string, boolean>();

/**
 * True when `root` (a real path) is the user's home folder, where a shell reads its startup files. Asked
 * once per root: $HOME is often outside what tern may read, and a refused read costs an exception.
 */
function isHome(root: string): boolean {
  let answer = homes.get(root);
  if (answer === undefined) {
    const home = Deno.env.get("HOME");
    answer = home !== undefined && isAbsolute(home) && (resolve(home) === root || realPathOf(home) === root);
    homes.set(root, answer);
  }
  return answer;
}

function realPathOf(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The guarded paths of `root` now (and the record of the protected set to compare with afterwards, unless
 * `compare` is false: a background process). Decided under the project's lock, with the placeholders other
 * tern processes rely on taken as held (sandbox_claims.ts).
 */
export function guardedPaths(
  root: string,
  options: { compare?: boolean; background?: boolean } = {},
): GuardedPaths {
  return underLock(root, () => setUp(root, options));
}

/** Where each protected name goes for one command: mounted, covered, borrowed or checked afterwards. */
interface Survey {
  pinned: string[];
  readOnly: string[];
  /** Placeholders this command puts in place. */
  dirs: string[];
  /** Placeholders of other running commands this one binds read-only (they must stay while it runs). */
  borrowed: string[];
  /** Missing names the mounts cannot cover. */
  uncovered: string[];
  listings: Listings;
  git: Deno.DirEntry | undefined;
  surface: GitSurface | undefined;
}

/** The protected names of `root` now, sorted into the survey; `held` tells another command's placeholders. */
function survey(root: string, held: (name: string) => boolean): Survey {
  const listings: Listings = new Map();
  const git = entryAt(root, ".git", listings);
  const found: Survey = {
    pinned: [],
    readOnly: [],
    dirs: [],
    borrowed: [],
    uncovered: [],
    listings,
    git,
    surface: gitSurface(root, listings),
  };
  const top = listings.get("")!;
  const names: string[] = [...SANDBOX_PROTECTED.dirs, ...SANDBOX_PROTECTED.files];
  for (const name of top.keys()) if (isEnvFileName(name) && !names.includes(name)) names.push(name);
  if (git?.isDirectory) names.push(...SANDBOX_PROTECTED.git.map((name) => `.git/${name}`));
  else if (git?.isFile) found.readOnly.push(".git"); // a gitdir pointer: rewritten, it would lead git elsewhere
  for (const name of SANDBOX_PROTECTED.pinned) {
    // Another command's placeholder (`.vscode`) is bound read-only as it is: nothing may be made inside it.
    if (held(name)) {
      found.borrowed.push(name);
      found.readOnly.push(name);
    } else if (top.get(name)?.isDirectory) found.pinned.push(name);
  }
  found.readOnly.push(...found.surface?.readOnly ?? []);
  // The hooks folder `core.hooksPath` names, missing: git would run what a command puts there.
  for (const name of found.surface?.missingDirs ?? []) (held(name) ? found.borrowed : found.dirs).push(name);
  for (const name of names) {
    if (!found.borrowed.includes(dirname(name))) sort(root, name, found, held); // else inside a placeholder
  }
  return found;
}

/** Sorts protected `name` into `found`. */
function sort(root: string, name: string, found: Survey, held: (name: string) => boolean): void {
  const path = join(root, name);
  const entry = entryAt(root, name, found.listings);
  const fileName = (SANDBOX_PROTECTED.files as readonly string[]).includes(name) || isEnvFileName(name);
  if (held(name)) found.borrowed.push(name);
  if (entry?.isDirectory && fileName && !held(name)) {
    // An empty folder at a file's name is a placeholder a killed run left behind: gone, it is guarded anew.
    stowPlaceholder(root, path);
    if (existsNoFollow(path)) {
      found.readOnly.push(name);
      return;
    }
  } else if (entry?.isFile || entry?.isDirectory) {
    // Only plain files and folders: bwrap refuses a source under a file, and a link is not what it names.
    found.readOnly.push(name);
    return;
  } else if (entry !== undefined) return;
  // Missing: not to be created. `commondir` and `config.worktree` cannot be covered (git would read the
  // placeholder and fail): the comparison after the command removes them if they appear.
  if (name === ".git/commondir" || name === ".git/config.worktree" || name === ".git/config") {
    found.uncovered.push(name);
    return;
  }
  // A shell's startup file runs only in a home folder: elsewhere one made during the command harms no one
  // and is removed after it (the comparison), so it gets no placeholder (a mount, a mkdir and an rmdir).
  if (isStartupFile(name) && !isHome(root)) return;
  const parent = dirname(name);
  // A parent that is missing, a file or a link cannot hold a mount point: cover the parent instead.
  if (parent === "." || entryAt(root, parent, found.listings)?.isDirectory) found.dirs.push(name);
  else if (entryAt(root, parent, found.listings) === undefined && parent === ".vscode") {
    found.dirs.push(".vscode");
  }
}

function setUp(root: string, options: { compare?: boolean; background?: boolean }): GuardedPaths {
  const others = otherClaims(root);
  const othersHold = heldByOthers(others);
  const held = (name: string) => inUse.has(join(root, name)) || othersHold.has(name);
  const leftovers = undoDeadClaims(root, others.dead, held);
  const { pinned, readOnly, dirs, borrowed, uncovered, listings, git, surface } = survey(root, held);
  const placeholders = [...new Set(dirs)];
  const claimed = [...placeholders, ...borrowed];
  const claim = { placeholders: claimed, uncovered, surface, background: options.background === true };
  // Claimed before any placeholder is put in place: should tern die now, the next one finds and removes them.
  const id = addClaim(root, { ...claim, git: git === undefined ? "none" : git.isDirectory ? "dir" : "file" });
  // Moved into place from the pool where there is one (bwrap makes the rest): after the listing above, so
  // the record below sees the project as it was.
  for (const name of placeholders) placeFromPool(root, join(root, name));
  hold(claimed.map((name) => join(root, name)));
  const record: ProtectedRecord | undefined = options.compare === false
    ? undefined
    : recordProtected(root, undefined, true, listings, new Set(claimed));
  // A background command runs long: what no mount covers is removed as it appears, not only at its end.
  const watch = options.background
    ? watchUncovered(root, [...uncovered, ...surface?.uncovered ?? []], () => undoGitSurface(root, surface))
    : undefined;
  const cleanUp = async () => {
    const undone = await watch?.stop() ?? [];
    underLock(root, () => {
      const stillHeld = heldByOthers(otherClaims(root));
      for (const path of release(claimed.map((name) => join(root, name)))) {
        if (!stillHeld.has(path.slice(root.length + 1))) stowPlaceholder(root, path); // only an empty one
      }
      dropClaim(root, id);
    });
    const said = record ? await restoreProtected(root, record) : removeAppeared(root, uncovered);
    return [...leftovers, ...undone, ...said, ...undoGitSurface(root, surface)];
  };
  const hidden = claimsFolder(root);
  return { pinned, readOnly, guardMissing: { dirs: [...placeholders, ...hidden] }, cleanUp };
}
