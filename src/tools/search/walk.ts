/**
 * The built-in tree walker shared by glob_files and grep_code: depth-first in name order (ripgrep's
 * `--sort path` order), honouring .gitignore files, never following symlinks, never opening special files.
 */

import type { Ignore } from "ignore";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { MAX_FILE_BYTES } from "../../fs/path_guard.ts";
import { npmPackage } from "../../npm.ts";

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

/** A .gitignore larger than this is not a real one; it is skipped rather than read. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/**
 * A UTF-16 code unit's place in code point order: a surrogate (half of a character above U+FFFF) sorts
 * after every other unit, and "/" (which ends a directory name in a path) before all of them.
 */
function rank(unit: number): number {
  if (unit === 0x2f) return -1;
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/**
 * Compares "/"-separated paths (or single names) in walk order: directory by directory, each name by
 * code point, which is the order of their UTF-8 bytes, as ripgrep sorts.
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  // Up to the first difference the strings agree, so a surrogate there is never half of a compared pair.
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) < rank(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** Reads a .gitignore only when it is a small regular file: a FIFO or a link named .gitignore is skipped. */
/** The `ignore` package, loaded with the first .gitignore read: about 13 ms no run without searches pays. */
let ignoreLib: Promise<(options: { allowRelativePaths: boolean }) => Ignore> | undefined;

function loadIgnore() {
  ignoreLib ??= npmPackage("ignore").then((module) => module.default);
  return ignoreLib;
}

async function readGitignore(path: string): Promise<string | null> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile || info.size > MAX_GITIGNORE_BYTES) return null;
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/** The directories from `floor` down to the parent of `rel` ("" is the root). */
function ancestors(rel: string, floor: string): string[] {
  const dirs: string[] = [];
  const parts = rel.split("/");
  for (let i = 0; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (floor === "" || dir === floor || dir.startsWith(`${floor}/`)) dirs.push(dir);
  }
  return dirs;
}

/**
 * The .gitignore files of a tree, loaded per directory on demand. Rules of a deeper .gitignore win over
 * a shallower one (git's precedence); files above `floor` are not consulted.
 */
export class GitignoreRules {
  #loaded = new Map<string, RuleSet | null>();
  /** Reads under way: checks running side by side read each .gitignore once. */
  #reading = new Map<string, Promise<void>>();

  /** `floor` is the root-relative directory whose .gitignore is the first one read ("" = the root). */
  constructor(readonly root: string, readonly floor = "") {}

  /** Loads the .gitignore of every directory on the way to `rel`; call before `ignores(rel)`. */
  async load(rel: string): Promise<void> {
    for (const dir of ancestors(rel, this.floor)) await this.loadDir(dir);
  }

  /**
   * Loads the .gitignore of directory `dir` (root-relative); cached. `listed` false says the directory's
   * listing shows no regular .gitignore, so there is nothing to read.
   */
  async loadDir(dir: string, listed = true): Promise<void> {
    if (this.#loaded.has(dir)) return;
    if (!listed) {
      this.#loaded.set(dir, null);
      return;
    }
    let reading = this.#reading.get(dir);
    if (reading === undefined) {
      reading = readGitignore(join(this.root, dir, ".gitignore")).then(async (text) => {
        this.#loaded.set(dir, text === null ? null : ruleSet(await loadIgnore(), text));
        this.#reading.delete(dir);
      });
      this.#reading.set(dir, reading);
    }
    await reading;
  }

  /** True when `rel` is ignored by the loaded rules; `isDir` marks a directory (for `name/` rules). */
  ignores(rel: string, isDir: boolean): boolean {
    return ignoredBy(this.chain(rel.slice(0, Math.max(0, rel.lastIndexOf("/")))), rel, isDir);
  }

  /**
   * The chain inside directory `dir` from its parent's (`parent`): its own .gitignore first, when it has one.
   * What a walk uses on the way down, instead of going up through every ancestor for each directory.
   */
  chainBelow(dir: string, parent: RuleChain): RuleChain {
    const own = this.#loaded.get(dir);
    return own ? [{ dir, ...own }, ...parent] : parent;
  }

  /** The loaded .gitignore rules that apply inside directory `dir`, deepest first (computed once per directory). */
  chain(dir: string): RuleChain {
    const chain: RuleChain = [];
    for (const at of ancestors(dir === "" ? "x" : `${dir}/x`, this.floor).reverse()) {
      const loaded = this.#loaded.get(at);
      if (loaded) chain.push({ dir: at, ...loaded });
    }
    return chain;
  }
}

/**
 * One .gitignore's rules. `forFiles` is there when no pattern holds a "/" but a trailing one (`*.log`,
 * `dist/`, `!keep.log`, the usual case): each pattern then matches a name at any depth, so within a walk
 * (which never enters an ignored directory) an entry is judged by its name alone, and a file only by the
 * patterns without a trailing "/" (null: none, nothing to test).
 */
interface RuleSet {
  rules: Ignore;
  forFiles?: Ignore | null;
  /** When every file pattern is `*.ext` (no "!"): the endings; a file is ignored when its name has one. */
  endings?: string[];
}

/** The .gitignore rules above an entry, deepest first. */
export type RuleChain = ({ dir: string } & RuleSet)[];

function ruleSet(ignore: (options: { allowRelativePaths: boolean }) => Ignore, text: string): RuleSet {
  const rules = ignore({ allowRelativePaths: true }).add(text);
  // Escapes (`\#`, a kept trailing space) are left to the full rules.
  if (text.includes("\\")) return { rules };
  const patterns = text.split("\n").map((line) => line.trim()).filter((line) =>
    line !== "" && !line.startsWith("#")
  );
  if (patterns.some((line) => line.replace(/^\\?!/, "").replace(/\/+$/, "").includes("/"))) return { rules };
  const files = patterns.filter((line) => !line.endsWith("/"));
  if (files.length === 0) return { rules, forFiles: null };
  const endings = files.every((line) => /^\*\.[\w.-]+$/.test(line))
    ? files.map((line) => line.slice(1))
    : undefined;
  return { rules, forFiles: ignore({ allowRelativePaths: true }).add(files), endings };
}

/** ignoredBy for an entry of a walk, whose parent directories were all found not ignored. */
function ignoredInWalk(chain: RuleChain, name: string, rel: string, isDir: boolean): boolean {
  for (const link of chain) {
    let result;
    if (link.forFiles === undefined) {
      const sub = link.dir === "" ? rel : rel.slice(link.dir.length + 1);
      result = link.rules.test(isDir ? `${sub}/` : sub);
    } else if (isDir) {
      result = link.rules.test(`${name}/`);
    } else if (link.forFiles === null) {
      continue;
    } else if (link.endings) {
      if (link.endings.some((ending) => name.endsWith(ending))) return true;
      continue;
    } else {
      result = link.forFiles.test(name);
    }
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/** Git's precedence: the deepest .gitignore with a rule matching `rel` decides. */
function ignoredBy(chain: RuleChain, rel: string, isDir: boolean): boolean {
  for (const { dir, rules } of chain) {
    const sub = dir === "" ? rel : rel.slice(dir.length + 1);
    const result = rules.test(isDir ? `${sub}/` : sub);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * The rules for a search starting at `start` (root-relative). A start directory that .gitignore itself
 * excludes was named on purpose, so only the .gitignore files inside it apply (as ripgrep does).
 */
export async function rulesFor(root: string, start: string): Promise<GitignoreRules> {
  const rules = new GitignoreRules(root);
  if (start === "" || start === ".") return rules;
  const parts = start.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    await rules.load(dir);
    if (rules.ignores(dir, true)) return new GitignoreRules(root, start);
  }
  return rules;
}

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

/** Lets the event loop run timers and I/O: a promise alone would keep the walk in the microtask queue. */
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

/**
 * Reads a file found by a walk as text for searching, or null when it must be skipped: no longer a
 * regular file, over the 10 MB limit, binary (a NUL byte anywhere), or not valid UTF-8.
 */
export async function readSearchable(path: string): Promise<string | null> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile || info.size > MAX_FILE_BYTES) return null;
    using file = await Deno.open(path, { read: true });
    const opened = await file.stat();
    // The same inode as checked: a file swapped for a FIFO between lstat and open is not read.
    if (opened.ino !== info.ino || opened.dev !== info.dev || opened.size > MAX_FILE_BYTES) return null;
    const bytes = new Uint8Array(opened.size);
    let total = 0;
    while (total < bytes.length) {
      const read = await file.read(bytes.subarray(total));
      if (read === null) break;
      total += read;
    }
    const data = bytes.subarray(0, total);
    // A NUL anywhere (not only in the first 8 KB) agrees with ripgrep, which drops a file at its first NUL.
    if (data.includes(0)) return null;
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return null;
  }
}
