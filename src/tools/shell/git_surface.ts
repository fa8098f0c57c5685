/**
 * What the user's own git reads in a project beyond `.git/config` and `.git/hooks`, so that a sandboxed
 * command cannot turn it into an executor: the folder `core.hooksPath` names, the files `include.path` and
 * `includeIf.*.path` name, the config and hooks of each repository under `.git/modules/` and of
 * each populated gitlink (a submodule entry, which `git status` goes into), and `.git/worktrees/*` pointers.
 * What exists is mounted read-only; a missing hooks folder gets a placeholder; what cannot be covered (a
 * missing include file, a new gitlink, a new repository under `.git/modules/`) is compared after the command
 * and undone (git_tame.ts). Everything here is a stat or a small read, cached by the files' identities: no
 * process is started.
 */
import { dirname, isAbsolute, join, relative, resolve } from "../../fs/path.ts";
import { entryAt, type Listings } from "./protected_check.ts";
import { gitlinksIn } from "./git_index.ts";
import { gitDirOf, tameNested, tameRepository } from "./git_tame.ts";

/** The surface as it was before a command; plain data, so a crash record can hold it (sandbox_claims.ts). */
export interface GitSurface {
  /** Paths (relative to the root) that exist and are mounted read-only. */
  readOnly: string[];
  /** Missing folders to cover with a placeholder (the hooks folder `core.hooksPath` names). */
  missingDirs: string[];
  /** Missing files git would read that no mount can cover: removed if they appear. */
  uncovered: string[];
  /** Each gitlink's path → the identity of its `.git` ("" when not populated). */
  nested: Record<string, string>;
  /** The names under `.git/modules/`. */
  modules: string[];
}

/** Config files read at most (a larger one is not a config a person wrote). */
const MAX_CONFIG = 256 * 1024;

interface Parsed {
  key: string;
  hooksPath?: string;
  includes: string[];
  gitlinks: { key: string; paths: string[] };
}
const cache = new Map<string, Parsed>();

function lstatOr(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** What a file is: changes with every write, rename or replacement ("" when missing). */
function identity(path: string): string {
  const info = lstatOr(path);
  return info ? `${info.ino}:${info.ctime?.getTime()}:${info.size}:${info.mode}` : "";
}

/**
 * Which file or folder is at `path`, whatever is written in it ("" when missing): a folder's change time
 * moves with every file git makes in it, its inode and birth time only when it is replaced.
 */
function which(path: string): string {
  const info = lstatOr(path);
  return info ? `${info.ino}:${info.birthtime?.getTime()}:${info.isDirectory}` : "";
}

/** A config value without its quotes (git's simple forms; an escape leaves it as written). */
function unquote(value: string): string {
  const trimmed = value.replace(/\s[#;].*$/, "").trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/** `core.hooksPath` and the include paths of config `text`, as written. */
export function configPointers(text: string): { hooksPath?: string; includes: string[] } {
  let section = "";
  let hooksPath: string | undefined;
  const includes: string[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    const header = /^\[([A-Za-z][\w.-]*)(?:\s+"[^"]*")?\]/.exec(trimmed);
    if (header) {
      section = header[1].toLowerCase();
      continue;
    }
    const pair = /^([A-Za-z][\w-]*)\s*=\s*(.*)$/.exec(trimmed);
    if (!pair) continue;
    const key = pair[1].toLowerCase();
    if (section === "core" && key === "hookspath") hooksPath = unquote(pair[2]);
    if ((section === "include" || section === "includeif") && key === "path") includes.push(unquote(pair[2]));
  }
  return { hooksPath, includes };
}

/** `path` (absolute, or relative to `base`; `~/` is outside any project) relative to `root`, if inside it. */
function inRoot(root: string, base: string, path: string): string | undefined {
  if (path === "" || path.startsWith("~")) return undefined;
  const rel = relative(root, isAbsolute(path) ? resolve(path) : resolve(base, path));
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? undefined : rel;
}

/** The parsed config and index of `root`, read again only when one of them changed. */
function parsed(root: string): Parsed {
  const configPath = join(root, ".git/config");
  const indexPath = join(root, ".git/index");
  const key = identity(configPath);
  const indexKey = identity(indexPath);
  let known = cache.get(root);
  if (known?.key !== key) {
    let text = "";
    const info = lstatOr(configPath);
    if (info?.isFile && info.size <= MAX_CONFIG) text = Deno.readTextFileSync(configPath);
    known = { key, ...configPointers(text), gitlinks: known?.gitlinks ?? { key: "-", paths: [] } };
    cache.set(root, known);
  }
  if (known.gitlinks.key !== indexKey) known.gitlinks = { key: indexKey, paths: gitlinksIn(indexPath) ?? [] };
  return known;
}

/** The names in folder `dir` (none when it is missing). */
function names(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** The surface of `root` now, when `.git` is a folder; `listings` of the root and `.git` (protected_check). */
export function gitSurface(root: string, listings: Listings): GitSurface | undefined {
  if (entryAt(root, ".git", listings)?.isDirectory !== true) return undefined;
  const { hooksPath, includes, gitlinks } = parsed(root);
  const surface: GitSurface = { readOnly: [], missingDirs: [], uncovered: [], nested: {}, modules: [] };
  const has = (name: string) => entryAt(root, name, listings) !== undefined;
  if (has(".git/modules")) {
    surface.modules = names(join(root, ".git/modules"));
    for (const name of surface.modules) surface.readOnly.push(...present(root, `.git/modules/${name}`));
  }
  if (has(".git/worktrees")) {
    for (const name of names(join(root, ".git/worktrees"))) {
      for (const file of ["commondir", "gitdir", "config.worktree", "config"]) {
        const rel = `.git/worktrees/${name}/${file}`;
        if (lstatOr(join(root, rel))) surface.readOnly.push(rel);
      }
    }
  }
  const hooks = hooksPath === undefined ? undefined : inRoot(root, root, hooksPath);
  if (hooks !== undefined && !hooks.startsWith(".git/") && hooks !== ".git") {
    const info = lstatOr(join(root, hooks));
    if (info?.isDirectory) surface.readOnly.push(hooks);
    else if (info === undefined && lstatOr(join(root, dirname(hooks)))?.isDirectory) {
      surface.missingDirs.push(hooks);
    }
  }
  for (const include of includes) {
    const rel = inRoot(root, join(root, ".git"), include);
    if (rel === undefined) continue;
    if (lstatOr(join(root, rel))) surface.readOnly.push(rel);
    else surface.uncovered.push(rel);
  }
  for (const path of gitlinks.paths) {
    surface.nested[path] = which(join(root, path, ".git"));
    const gitDir = surface.nested[path] === "" ? undefined : gitDirOf(root, path);
    if (gitDir === undefined || gitDir === "outside") continue;
    if (gitDir !== join(path, ".git")) surface.readOnly.push(join(path, ".git"));
    if (!gitDir.startsWith(".git/modules/")) surface.readOnly.push(...present(root, gitDir));
  }
  return surface;
}

/** What of a git directory's parts that run code exists: its config and hooks. */
function present(root: string, gitDir: string): string[] {
  return ["config", "hooks"].map((name) => `${gitDir}/${name}`).filter((rel) => lstatOr(join(root, rel)));
}

/**
 * Undoes what a command left on the surface since `before` (undefined: `.git` was no folder, so a
 * repository there now is the command's own): a new or replaced nested repository reached by a gitlink, a new
 * one under `.git/modules/`, an include file that appeared. Returns one phrase per change. Never throws.
 */
export function undoGitSurface(root: string, before: GitSurface | undefined): string[] {
  const said: string[] = [];
  if (before === undefined && !lstatOr(join(root, ".git"))?.isDirectory) return said;
  if (before === undefined) said.push(...tameRepository(root, ".git"));
  for (const rel of before?.uncovered ?? []) {
    if (!lstatOr(join(root, rel))) continue;
    try {
      Deno.removeSync(join(root, rel), { recursive: true });
    } catch {
      // Gone meanwhile.
    }
    said.push(`removed ${rel} (created)`);
  }
  // Listed through `.git`: a listing that fails (no modules folder) costs an exception, most commands' case.
  const modules = names(join(root, ".git")).includes("modules") ? names(join(root, ".git/modules")) : [];
  for (const name of modules) {
    if (!before?.modules.includes(name)) said.push(...tameRepository(root, `.git/modules/${name}`));
  }
  for (const path of parsed(root).gitlinks.paths) {
    const now = which(join(root, path, ".git"));
    if (now !== "" && before?.nested[path] !== now) said.push(...tameNested(root, path));
  }
  return said;
}
