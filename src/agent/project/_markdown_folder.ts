/**
 * Folders of Markdown files that configure tern (named agents, custom commands): the project's own, reached
 * only through plain directories, and the user's, under `$XDG_CONFIG_HOME/tern/` (else `~/.config/tern/`),
 * read only when tern's permission flags allow it. Symlinked files are skipped, so no file can pull text from
 * outside its folder.
 */
import { join } from "../../fs/path.ts";

/** A Markdown file as read: where it is shown from (".tern/agents/x.md", "~/.config/tern/agents/x.md"), and its text. */
export interface MarkdownFile {
  source: string;
  text: string;
}

/** How much of a folder is read, and what its files are called in problems. */
export interface FolderLimits {
  maxFiles: number;
  maxBytes: number;
  /** E.g. "agent files". */
  what: string;
}

/** The files read and the problems met, gathered over several folders. */
export interface Gathered {
  files: MarkdownFile[];
  problems: string[];
}

/** The user's own folder `sub` for `env`: `$XDG_CONFIG_HOME/tern/<sub>`, else `~/.config/tern/<sub>`. */
export function userConfigDir(
  env: Record<string, string | undefined>,
  sub: string,
): { path: string; shown: string } | null {
  if (env.XDG_CONFIG_HOME) {
    const path = join(env.XDG_CONFIG_HOME, "tern", sub);
    return { path, shown: path };
  }
  if (!env.HOME) return null;
  return { path: join(env.HOME, ".config", "tern", sub), shown: `~/.config/tern/${sub}` };
}

/** The project's folders `dirs` (relative to `root`), each read only when every level is a plain directory. */
export async function readProjectFolders(
  root: string,
  dirs: string[],
  limits: FolderLimits,
): Promise<Gathered> {
  const out: Gathered = { files: [], problems: [] };
  for (const dir of dirs) {
    if (await isPlainDir(root, dir)) await readMarkdownFolder(join(root, dir), dir, out, limits);
  }
  return out;
}

/**
 * The user's own folder `dir`; nothing when it is missing or tern's permission flags do not let it read
 * there (`readable: false`: the default flags allow only the project).
 */
export async function readUserFolder(
  dir: { path: string; shown: string },
  limits: FolderLimits,
): Promise<Gathered & { readable: boolean }> {
  const out: Gathered = { files: [], problems: [] };
  const state = (await Deno.permissions.query({ name: "read", path: dir.path })).state;
  if (state !== "granted") return { ...out, readable: false };
  const info = await Deno.lstat(dir.path).catch(() => undefined);
  if (info?.isDirectory) await readMarkdownFolder(dir.path, dir.shown, out, limits);
  return { ...out, readable: true };
}

/** Reads the `.md` files of the folder at `path` (shown as `shown`), in name order, into `out`. */
async function readMarkdownFolder(
  path: string,
  shown: string,
  out: Gathered,
  limits: FolderLimits,
): Promise<void> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) if (entry.name.endsWith(".md")) names.push(entry.name);
  for (const name of names.sort()) {
    const source = `${shown}/${name}`;
    if (out.files.length >= limits.maxFiles) {
      out.problems.push(`${source}: more than ${limits.maxFiles} ${limits.what}; the rest are left out`);
      break;
    }
    // lstat, not stat: a symlink is skipped, so a file cannot pull text from outside the folder.
    const info = await Deno.lstat(join(path, name)).catch(() => undefined);
    if (!info?.isFile) out.problems.push(`${source}: not a regular file`);
    else if (info.size > limits.maxBytes) {
      out.problems.push(`${source}: larger than ${limits.maxBytes / 1024} KB`);
    } else {
      const text = await Deno.readTextFile(join(path, name)).catch(() => undefined);
      if (text === undefined) out.problems.push(`${source}: cannot be read as text`);
      else out.files.push({ source, text });
    }
  }
}

/** True when every level of `rel` under `root` is a directory (not a symlink to one). */
async function isPlainDir(root: string, rel: string): Promise<boolean> {
  let path = root;
  for (const part of rel.split("/")) {
    path = join(path, part);
    const info = await Deno.lstat(path).catch(() => undefined);
    if (!info?.isDirectory) return false;
  }
  return true;
}
