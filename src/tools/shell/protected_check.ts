/**
 * Belt and braces for the sandbox's protected paths: the protected set is recorded before a command (type,
 * mode, link target, inode, times, and the bytes of every file up to 1 MiB) and compared after it. What changed or went
 * away is put back, what appeared is removed, and the caller tells the model and the user which paths those
 * were. The read-only binds should leave nothing to do; this catches any trick they miss.
 */
import { dirname, join } from "../../fs/path.ts";
import { isEnvFileName, SANDBOX_PROTECTED } from "../../config/protected_paths.ts";
import { isInside } from "../../fs/path_basics.ts";
import { tameRepository } from "./git_tame.ts";

/** Files up to this size are kept whole, so they can be compared byte for byte and put back. */
const MAX_KEPT_BYTES = 1024 * 1024;
/** Entries recorded at most (a huge `.claude/` must not make every command slow). */
const MAX_ENTRIES = 5000;
/** Under `.tern`, tern's own state and spills are tern's to write, never a command's: not compared. */
const SKIPPED = new Set([".tern/local", ".tern/tool-outputs"]);

interface Seen {
  kind: "file" | "dir" | "link" | "other";
  mode: number | null;
  size: number;
  mtimeMs: number;
  /** Change time and inode: set by the kernel on every write, so no command can keep them unchanged. */
  ctimeMs: number;
  ino: number;
  /** A file's bytes, when it is small enough to keep. */
  bytes?: Uint8Array;
  target?: string;
}

/** The protected set as it was: path (relative to the root) → what was there; and what `.git` was. */
export interface ProtectedRecord {
  entries: Map<string, Seen>;
  git: "dir" | "file" | "none";
  /** Placeholders (relative): managed by their claims (sandbox_claims.ts), never compared. */
  skip: Set<string>;
}

/** What is at `path`; with `keep`, a small file's bytes too (to put it back). */
function see(path: string, keep: boolean): Seen | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path); // sync: every command looks at a few dozen paths (see guarded_paths.ts)
  } catch {
    return undefined;
  }
  const base = {
    mode: info.mode,
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? 0,
    ctimeMs: info.ctime?.getTime() ?? 0,
    ino: info.ino ?? 0,
  };
  if (info.isSymlink) return { kind: "link", ...base, target: readLinkOr(path, "") };
  if (info.isDirectory) return { kind: "dir", ...base };
  if (!info.isFile) return { kind: "other", ...base };
  const small = keep && info.size <= MAX_KEPT_BYTES;
  return {
    kind: "file",
    ...base,
    bytes: small ? readFileOr(path) : undefined,
  };
}

function readLinkOr(path: string, fallback: string): string {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return fallback;
  }
}

function readFileOr(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Listings of folders below a root, by path relative to it ("" for the root itself). */
export type Listings = Map<string, Map<string, Deno.DirEntry>>;

/**
 * The entries of folder `dir` by name (none when it is not a readable folder). One listing answers for every
 * protected name in it: most of them are missing, and an lstat that fails costs an exception each.
 */
function listing(dir: string): Map<string, Deno.DirEntry> {
  const entries = new Map<string, Deno.DirEntry>();
  try {
    for (const entry of Deno.readDirSync(dir)) entries.set(entry.name, entry);
  } catch {
    // Not a folder (or gone): nothing is in it.
  }
  return entries;
}

/** What is at `name` (relative to the root, at most one folder deep), from the listing of its folder. */
export function entryAt(root: string, name: string, listings: Listings): Deno.DirEntry | undefined {
  const slash = name.indexOf("/");
  const folder = slash < 0 ? "" : name.slice(0, slash);
  if (folder !== "" && entryAt(root, folder, listings)?.isDirectory !== true) return undefined;
  let entries = listings.get(folder);
  if (entries === undefined) listings.set(folder, entries = listing(join(root, folder)));
  return entries.get(slash < 0 ? name : name.slice(slash + 1));
}

/**
 * The names to look at that exist: the fixed protected names, every `.env*` at the top, and `.git`'s
 * protected parts as `.git` is (or, after a command, as it was before it: a repository the command made
 * with `git init` is the command's own).
 */
function candidates(root: string, git: ProtectedRecord["git"], listings: Listings): string[] {
  const names: string[] = [...SANDBOX_PROTECTED.dirs, ...SANDBOX_PROTECTED.files];
  for (const name of listings.get("")?.keys() ?? []) {
    if (isEnvFileName(name) && !names.includes(name)) names.push(name);
  }
  if (git === "dir") names.push(...SANDBOX_PROTECTED.git.map((name) => `.git/${name}`));
  else if (git === "file") names.push(".git");
  return names.filter((name) => entryAt(root, name, listings) !== undefined);
}

/**
 * Records the protected set of `root` (folders walked, links not followed), small files' bytes included;
 * `git` as found, by default. `keep: false` records what is there without reading any file (the check after
 * a command: the kernel's change time and inode tell a change). `listings`: of the root and `.git` now, when
 * the caller has them.
 */
export function recordProtected(
  root: string,
  git?: ProtectedRecord["git"],
  keep = true,
  listings: Listings = new Map(),
  skip: Set<string> = new Set(),
): ProtectedRecord {
  const dotGit = entryAt(root, ".git", listings);
  const record: ProtectedRecord = {
    entries: new Map(),
    git: git ?? (dotGit === undefined ? "none" : dotGit.isDirectory ? "dir" : "file"),
    skip,
  };
  let count = 0;
  const found: [string, Seen][] = [];
  const visit = (rel: string): void => {
    if (count >= MAX_ENTRIES || SKIPPED.has(rel) || skip.has(rel)) return;
    const seen = see(join(root, rel), keep);
    if (seen === undefined) return;
    count++;
    found.push([rel, seen]);
    if (seen.kind !== "dir") return;
    for (const child of listing(join(root, rel)).keys()) visit(`${rel}/${child}`);
  };
  for (const name of candidates(root, record.git, listings)) visit(name);
  // Sorted, for a stable order.
  for (const [rel, seen] of found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    record.entries.set(rel, seen);
  }
  return record;
}

/** Unchanged: same kind, mode and link target, and for a file the same inode, size, mtime and change time. */
function same(a: Seen, b: Seen): boolean {
  if (a.kind !== b.kind || a.mode !== b.mode) return false;
  if (a.kind === "link") return a.target === b.target;
  if (a.kind !== "file") return true;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** Removes whatever is at `rel` (a folder with all it holds). */
async function clear(root: string, rel: string): Promise<void> {
  await Deno.remove(join(root, rel), { recursive: true }).catch(() => {});
}

/** Puts `seen` back at `rel`; false when that cannot be done (a large file's bytes were not kept). */
async function putBack(root: string, rel: string, seen: Seen): Promise<boolean> {
  const path = join(root, rel);
  // The parent must be a real folder inside the root: a link planted in its place leads nowhere.
  const parent = await Deno.realPath(dirname(path)).catch(() => undefined);
  if (parent === undefined || !isInside(root, parent) || parent !== dirname(path)) return false;
  if (seen.kind === "file" && seen.bytes === undefined) return false;
  if (seen.kind === "other") return false;
  const now = await Deno.lstat(path).catch(() => undefined);
  if (seen.kind === "dir" && now?.isDirectory) {
    if (seen.mode !== null) await Deno.chmod(path, seen.mode & 0o7777); // its entries are compared one by one
    return true;
  }
  await clear(root, rel);
  if (seen.kind === "dir") await Deno.mkdir(path);
  else if (seen.kind === "link") await Deno.symlink(seen.target ?? "", path);
  else {
    await Deno.writeFile(path, seen.bytes!, { createNew: true });
    await Deno.utime(path, new Date(), new Date(seen.mtimeMs));
  }
  if (seen.kind !== "link" && seen.mode !== null) await Deno.chmod(path, seen.mode & 0o7777);
  return true;
}

/**
 * Compares the protected set now with `before`: removes what appeared, puts back what changed or went
 * away. Returns one phrase per path, e.g. "put back .git/config", "removed AGENTS.md (created)".
 */
export async function restoreProtected(root: string, record: ProtectedRecord): Promise<string[]> {
  const before = record.entries;
  const after = recordProtected(root, record.git, false, new Map(), record.skip).entries;
  const said: string[] = [];
  // Deepest first: a created folder goes with what it holds.
  const created = [...after.keys()].filter((rel) => !before.has(rel)).sort((a, b) => b.length - a.length);
  for (const rel of created) {
    if (![...before.keys()].some((kept) => kept.startsWith(`${rel}/`))) {
      await clear(root, rel);
      if (!created.some((other) => rel.startsWith(`${other}/`))) said.push(`removed ${rel} (created)`);
    }
  }
  // Shallowest first: a folder is back before the files that go in it.
  for (const [rel, seen] of [...before].sort(([a], [b]) => a.length - b.length)) {
    const now = after.get(rel);
    if (now !== undefined && same(seen, now)) continue;
    const done = await putBack(root, rel, seen).catch(() => false);
    said.push(done ? `put back ${rel}` : `${rel} changed and could not be put back`);
  }
  if (record.git === "none") said.push(...tameRepository(root, ".git"));
  return said;
}
