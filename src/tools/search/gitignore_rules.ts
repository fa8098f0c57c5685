/**
 * The .gitignore rules of a tree as a walk or a single check applies them: loaded per directory on demand,
 * the deepest .gitignore deciding (git's precedence).
 */

import type { Ignore } from "ignore";
import { join } from "../../fs/path.ts";
import { npmPackage } from "../../npm.ts";

/** A .gitignore larger than this is not a real one; it is skipped rather than read. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** The `ignore` package, loaded with the first .gitignore read: about 13 ms no run without searches pays. */
let ignoreLib: Promise<(options: { allowRelativePaths: boolean }) => Ignore> | undefined;

function loadIgnore() {
  ignoreLib ??= npmPackage("ignore").then((module) => module.default);
  return ignoreLib;
}

/** Reads a .gitignore only when it is a small regular file: a FIFO or a link named .gitignore is skipped. */
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
export function ignoredInWalk(chain: RuleChain, name: string, rel: string, isDir: boolean): boolean {
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
