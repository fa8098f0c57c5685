/**
 * Empty folders kept for the sandbox's placeholders (guarded_paths.ts): a command moves them into place and
 * back instead of making and removing them. On ext4 an rmdir costs about 130 µs (it frees the folder's
 * block) and a rename about 18: with some twenty placeholders, that was 3 ms of every command (issue 18).
 * The pool lives in tern's own state folder (`.tern/local/placeholders`, read-only inside the sandbox),
 * which the front end names (`usePlaceholderPool`); without one, bwrap makes them and tern removes them.
 * Nothing is taken from the pool on trust: an entry is used only while it is a real, empty folder.
 */
import { join } from "../../fs/path.ts";

/** Where a project's pool is, or undefined where it keeps none; may throw (taken as none). */
type PoolLocator = (root: string) => string | undefined;

let locate: PoolLocator | undefined;
/**
 * A project's pool: its folder and the entries in it, each with whether this process put it there (checked
 * empty as it went in) or found it there (checked when taken: the pool may hold what another run left).
 */
interface Pool {
  dir: string;
  entries: { name: string; ours: boolean }[];
}

const pools = new Map<string, Pool | null>();
let stowed = 0;

/** Turns the pool on for this process: `where` says where a project's pool folder is (made if need be). */
export function usePlaceholderPool(where: PoolLocator | undefined): void {
  locate = where;
  pools.clear();
}

function poolOf(root: string): Pool | null {
  if (locate === undefined) return null;
  let pool = pools.get(root);
  if (pool === undefined) {
    pool = null;
    try {
      const dir = locate(root);
      if (dir !== undefined) {
        pool = { dir, entries: [...Deno.readDirSync(dir)].map(({ name }) => ({ name, ours: false })) };
      }
    } catch {
      // No state folder of tern's own here: placeholders are made and removed.
    }
    pools.set(root, pool);
  }
  return pool;
}

/** True when `path` is a folder (not a link to one) with nothing in it. */
function isEmptyFolder(path: string): boolean {
  if (!Deno.lstatSync(path).isDirectory) return false;
  for (const _ of Deno.readDirSync(path)) return false;
  return true;
}

/** Moves an empty pooled folder to `path` (absolute, missing); false when the pool had none to give. */
export function placeFromPool(root: string, path: string): boolean {
  const pool = poolOf(root);
  while (pool && pool.entries.length > 0) {
    const { name, ours } = pool.entries.pop()!;
    const from = join(pool.dir, name);
    try {
      // What is not an empty folder stays where it is: it is not a placeholder, whoever put it there.
      if (ours || isEmptyFolder(from)) {
        Deno.renameSync(from, path);
        return true;
      }
    } catch {
      // Taken by another tern meanwhile, or something appeared at `path`: bwrap makes the mount point.
    }
  }
  return false;
}

/** Puts the placeholder at `path` back in the pool, or removes it; never what is no longer an empty folder. */
export function stowPlaceholder(root: string, path: string): void {
  try {
    if (!isEmptyFolder(path)) return;
    const pool = poolOf(root);
    if (pool) {
      const name = `${Deno.pid}-${++stowed}`;
      try {
        Deno.renameSync(path, join(pool.dir, name));
        pool.entries.push({ name, ours: true });
        return;
      } catch {
        // The pool is gone or on another file system: removed as it would be without one.
      }
    }
    Deno.removeSync(path); // rmdir: fails on a folder something was put in meanwhile
  } catch {
    // Gone, or not empty: not ours to move or remove.
  }
}
