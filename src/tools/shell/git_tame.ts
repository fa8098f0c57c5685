/**
 * A repository a sandboxed command made (`git init` at the top, a nested one staged as a submodule, one under
 * `.git/modules/`) is its own, but nothing in it may run later, when the user runs git outside the sandbox:
 * hooks other than git's samples, a config beyond what `git init` and `git remote add` write, and the files
 * that would lead git to another config are removed. A gitdir file that leads out of the project is removed.
 */
import { dirname, isAbsolute, join, resolve } from "../../fs/path.ts";
import { isInside } from "../../fs/path_basics.ts";

/** Config files larger than this are not read: removed whole. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** What a config a command wrote may keep: what `git init`, `git remote add` and `git config user.*` write. */
const SAFE_GIT_KEYS: Record<string, RegExp> = {
  // core.worktree: where a submodule's files are (`git submodule update` writes it); it runs nothing.
  core:
    /^(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|worktree)$/,
  extensions: /^(objectformat|refstorage)$/,
  remote: /^(url|pushurl|fetch)$/,
  branch: /^(remote|merge)$/,
  user: /^(name|email)$/,
  init: /^defaultbranch$/,
};

/** `text` with only the safe settings kept, and the names of those it dropped. */
export function safeGitConfig(text: string): { kept: string; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  let section: string | undefined;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    const header = /^\[([A-Za-z][\w.-]*)(?:\s+"[^"\\]*")?\]$/.exec(trimmed);
    if (header) {
      section = header[1].toLowerCase().split(".")[0];
      if (Object.hasOwn(SAFE_GIT_KEYS, section)) kept.push(trimmed);
      continue;
    }
    if (trimmed === "" || /^[#;]/.test(trimmed)) continue;
    const pair = /^([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(trimmed);
    const key = pair?.[1].toLowerCase() ?? "";
    const safe = pair !== null && section !== undefined && SAFE_GIT_KEYS[section]?.test(key) &&
      !trimmed.endsWith("\\") && !/^ext::|^fd::/i.test(pair[2] ?? "");
    if (safe) kept.push(`\t${trimmed}`);
    else dropped.push(section && pair ? `${section}.${key}` : trimmed.slice(0, 40));
  }
  return { kept: kept.join("\n") + "\n", dropped };
}

function lstatOr(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

function realOr(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

function removeAll(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // Gone already.
  }
}

/**
 * Tames the git directory at `rel` (relative to `root`): see the module comment. Returns one phrase per
 * change, naming paths relative to the root. Never throws.
 */
export function tameRepository(root: string, rel: string): string[] {
  const said: string[] = [];
  const gitDir = join(root, rel);
  if (!lstatOr(gitDir)?.isDirectory) return said;
  for (const name of ["commondir", "config.worktree"]) {
    if (lstatOr(join(gitDir, name))) {
      removeAll(join(gitDir, name));
      said.push(`removed ${rel}/${name} (created)`);
    }
  }
  const hooks = join(gitDir, "hooks");
  const hooksInfo = lstatOr(hooks);
  if (hooksInfo && !hooksInfo.isDirectory) {
    removeAll(hooks);
    said.push(`removed ${rel}/hooks (not a folder)`);
  } else if (hooksInfo) {
    for (const hook of [...Deno.readDirSync(hooks)].filter((entry) => !entry.name.endsWith(".sample"))) {
      removeAll(join(hooks, hook.name));
      said.push(`removed ${rel}/hooks/${hook.name} (created)`);
    }
  }
  const config = join(gitDir, "config");
  const info = lstatOr(config);
  if (info !== undefined && (!info.isFile || info.size > MAX_CONFIG_BYTES)) {
    removeAll(config);
    said.push(`removed ${rel}/config (not a plain, small file)`);
  } else if (info !== undefined) {
    const { kept, dropped } = safeGitConfig(Deno.readTextFileSync(config));
    if (dropped.length > 0) {
      removeAll(config);
      Deno.writeTextFileSync(config, kept, { createNew: true });
      said.push(`cleaned ${rel}/config (removed ${dropped.join(", ")})`);
    }
  }
  return said;
}

/**
 * Where the git directory of the worktree folder `rel` is, relative to `root`: its `.git` folder, or the
 * folder its `.git` file names when that is inside the root. Undefined when there is none; `outside` when a
 * `.git` file names a place outside the root (or cannot be read).
 */
export function gitDirOf(root: string, rel: string): string | "outside" | undefined {
  // A worktree folder outside the root (an index entry `../x`), or a link (or under one): not where git
  // looks from the top, nothing to tame.
  const folder = join(root, rel);
  if (!isInside(root, folder) || folder === root || realOr(folder) !== folder) return undefined;
  const dotGit = join(root, rel, ".git");
  const info = lstatOr(dotGit);
  if (info === undefined) return undefined;
  if (info.isDirectory) return join(rel, ".git");
  if (!info.isFile || info.size > 4096) return "outside";
  let target: string;
  try {
    target = /^gitdir:\s*(.*?)\s*$/m.exec(Deno.readTextFileSync(dotGit))?.[1] ?? "";
  } catch {
    return "outside";
  }
  if (target === "") return "outside";
  const absolute = isAbsolute(target) ? resolve(target) : resolve(dirname(dotGit), target);
  const real = realOr(absolute);
  if (real === undefined) return "outside";
  return isInside(root, real) && real !== root ? real.slice(root.length + 1) : "outside";
}

/**
 * Tames the nested repository checked out at worktree folder `rel` (a gitlink's path): its git directory
 * wherever it is inside the root; a `.git` file leading outside is removed. Never throws.
 */
export function tameNested(root: string, rel: string): string[] {
  const gitDir = gitDirOf(root, rel);
  if (gitDir === undefined) return [];
  if (gitDir === "outside") {
    removeAll(join(root, rel, ".git"));
    return [`removed ${rel}/.git (a gitdir file leading out of the project)`];
  }
  try {
    return tameRepository(root, gitDir);
  } catch {
    removeAll(join(root, rel, ".git"));
    return [`removed ${rel}/.git (could not be checked)`];
  }
}
