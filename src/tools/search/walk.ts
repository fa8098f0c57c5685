/**
 * The built-in tree walker shared by glob_files and grep_code: depth-first in name order (ripgrep's
 * `--sort path` order), honouring .gitignore files, never following symlinks, never opening special files.
 */

import { join } from "../../fs/path.ts";
import { type GitignoreRules, ignoredInWalk, type RuleChain } from "./gitignore_rules.ts";
import { comparePaths } from "./path_order.ts";

/**
 * Names never walked into or listed below the starting directory, whatever .gitignore says: version
 * control internals, tern's own spill files, dependency and tool caches that dwarf the project. A
 * directory named explicitly as the search path is still searched. Build outputs (dist, build, target)
 * are left to .gitignore: in some projects they hold real sources.
 */
export const SKIPPED_NAMES: readonly string[] = [
  ".git",
  ".hg",
  ".svn",
  ".tern",
  "node_modules",
  ".venv",
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
];

/** One entry found by the walk: a regular file or a symbolic link (never followed). */
export interface WalkEntry {
  /** Path relative to the root, "/"-separated. */
  rel: string;
  kind: "file" | "symlink";
}

/** Options of `walkTree`. */
export interface WalkOptions {
  /** Stops the walk between directories. */
  signal?: AbortSignal;
  /** Directory levels below the start to enter (1 = the start's own entries only); default unlimited. */
  maxDepth?: number;
  /** Called for each directory below the start; false prunes it (grep_code's negated globs). */
  enterDir?: (rel: string) => boolean;
  /**
   * Called with the name of each file or symlink; false leaves it out before anything else is done with it
   * (glob_files' `*.ts`: most files of a tree fail that test, and skip the path, rules and batch).
   */
  keepName?: (name: string) => boolean;
}

/** Entries handed to the consumer at once: one promise per batch, not one per entry. */
const BATCH = 256;

/** The longest stretch of walking, in ms, before other work (a cancel key, a timer) gets its turn. */
const SLICE_MS = 8;

/**
 * Lets the event loop run timers and I/O: a promise alone would keep the walk in the microtask queue. Deno's
 * global setImmediate, not node:timers' (an import loads that module at start-up; the global's code runs on
 * first use, as setTimeout's does): 5 µs a call, where setTimeout(0) takes 2 ms (nested timers are clamped)
 * and a MessageChannel message 12-47 µs, and lets I/O through only slowly.
 */
function breathe(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What an entry of a listing is; readDir reports the entry itself (lstat), so a link is never followed. */
type Kind = "file" | "dir" | "symlink";

/** An entry of a listing, its fields copied out of Deno's DirEntry once: reading those is a slow lookup. */
interface Listed {
  name: string;
  kind: Kind;
}

/**
 * The entries of a directory the walk can use, sorted, and whether a regular .gitignore is among them. An
 * unreadable or vanished directory has none (as ripgrep skips it). Skipped names, FIFOs, sockets and devices
 * (opening one can block forever or never end) and the files `keepName` refuses are left out before the sort.
 * Read synchronously: the async iterator costs a promise per entry (4x slower on 50,000 files), and one
 * directory listing is short; the walk still lets the event loop run every few milliseconds.
 */
function listDir(
  path: string,
  keepName?: (name: string) => boolean,
): { entries: Listed[]; gitignore: boolean } {
  const entries: Listed[] = [];
  let gitignore = false;
  let names = "";
  try {
    for (const entry of Deno.readDirSync(path)) {
      const name = entry.name;
      // The three types exclude each other (they come from one lstat mode): a file needs one lookup.
      const kind = entry.isFile ? "file" : entry.isDirectory ? "dir" : entry.isSymlink ? "symlink" : null;
      if (kind === "file" && name === ".gitignore") gitignore = true;
      // Not a Set: hashing each fresh name from readDir cost a sixth of a walk, ten comparisons almost nothing.
      if (kind === null || SKIPPED_NAMES.includes(name)) continue;
      if (kind !== "dir" && keepName !== undefined && !keepName(name)) continue;
      entries.push({ name, kind });
      names += name;
    }
  } catch {
    return { entries: [], gitignore: false };
  }
  // Names hold no "/", so without surrogates code unit order is code point order: the plain comparison.
  // One test over all the names: a test per name cost a tenth of a walk.
  entries.sort(SURROGATE.test(names) ? (a, b) => comparePaths(a.name, b.name) : byName);
  return { entries, gitignore };
}

const SURROGATE = /[\uD800-\uDFFF]/;

function byName(a: Listed, b: Listed): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** One directory being walked: its sorted entries, the next one to look at, and the rules inside it. */
interface Level {
  dir: string;
  depth: number;
  entries: Listed[];
  next: number;
  chain: RuleChain;
}

/**
 * Walks the directory `start` (root-relative, already checked by the path guard) and yields its files and
 * symlinks in batches, in ripgrep's `--sort path` order. Skips SKIPPED_NAMES, ignored paths, FIFOs,
 * sockets and devices.
 */
export async function* walkTree(
  root: string,
  start: string,
  rules: GitignoreRules,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry[]> {
  // An explicit stack, not recursion with yield*: each level of delegation costs every entry a promise.
  const stack: Level[] = [];
  let batch: WalkEntry[] = [];
  let slice = performance.now();
  const enter = async (dir: string, depth: number, parent?: RuleChain) => {
    if (performance.now() - slice > SLICE_MS) {
      await breathe();
      slice = performance.now();
    }
    options.signal?.throwIfAborted();
    const { entries, gitignore } = listDir(join(root, dir), keepName);
    // The listing tells which directories hold a .gitignore: no lstat of a missing one in every directory.
    await rules.loadDir(dir, gitignore);
    const chain = parent === undefined ? rules.chain(dir) : rules.chainBelow(dir, parent);
    stack.push({ dir, depth, entries, next: 0, chain });
  };
  const maxDepth = options.maxDepth ?? Infinity;
  const keepName = options.keepName;
  await enter(start === "." ? "" : start, 1);
  while (stack.length > 0) {
    // One directory's entries in a tight loop, until it ends (pop) or a subdirectory is entered.
    const top = stack[stack.length - 1];
    const { dir, entries, chain } = top;
    const checked = chain.length > 0;
    let entered = false;
    while (!entered && top.next < entries.length) {
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
      const { name, kind } = entries[top.next++];
      const isDir = kind === "dir";
      const rel = dir === "" ? name : `${dir}/${name}`;
      if (checked && ignoredInWalk(chain, name, rel, isDir)) continue;
      if (!isDir) {
        batch.push({ rel, kind });
      } else if (top.depth < maxDepth && (options.enterDir?.(rel) ?? true)) {
        await enter(rel, top.depth + 1, chain);
        entered = true;
      }
    }
    if (!entered) stack.pop();
  }
  if (batch.length > 0) yield batch;
}
