/** Atomic file replacement: write a temp file beside the target, then rename it over the target. */

import { basename, dirname, relative, sep } from "./path.ts";
import { createThroughWall } from "./file_wall.ts";
import { changedError, showPath } from "./path_basics.ts";
import { ToolError } from "./tool_error.ts";

/** Options of `atomicWrite`. */
export interface AtomicWriteOptions {
  /** Permission bits for the file (e.g. the mode of the file being replaced); default 0o644 less umask. */
  mode?: number;
}

/**
 * Runs the create steps through the file wall (file_wall.ts: tern's file helper, which works from inside each
 * directory, proven by the kernel's view of it, with single-component names no swap of a parent can redirect).
 * `args`: the real directory to start in; the missing levels below it, "/"-joined ("" for none), created one
 * at a time, each checked to be a real directory; then, unless the target is empty: `data` written to the new
 * temp file (never an existing file, never through a symlink), given the mode (octal, or ""), the directory
 * checked again, the temp renamed over the target, and the target checked to be the file written. Resolves with
 * the directories it created (absolute), or throws the refusal for its exit (3: something changed under us;
 * 4: a parent exists and is not a directory; 5: the file system refused).
 */
async function create(args: string[], data: Uint8Array | null, shown: string): Promise<string[]> {
  const { code, created } = await createThroughWall(args, data ?? new Uint8Array());
  if (code === 4) throw new ToolError(`${showPath(shown)}: a parent path exists and is not a directory.`);
  if (code === 3) throw changedError(shown);
  if (code !== 0) throw new ToolError(`${showPath(shown)}: the file system refused the write.`);
  return created;
}

/**
 * Replaces `path` (a real path: its parent resolved, inside the root) with `data` so readers see the old file
 * or the new one, never half of it. The temp file lives in the same directory (a rename is atomic only within
 * one filesystem) and is removed on failure. Create the temp file, check it, write, check the directory
 * again, rename: all from inside the directory, confirmed by the kernel (see `create`).
 */
export async function atomicWrite(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const name = basename(path);
  const temp = `.${name}.tern-${crypto.randomUUID().slice(0, 8)}.tmp`;
  // Without a mode the file gets 0o666 less the umask, like any new file.
  const mode = options.mode === undefined ? "" : (options.mode & 0o7777).toString(8);
  await create([dirname(path), "", name, temp, mode], data, name);
}

/**
 * Creates the missing directories on the way to `path` (a real path inside `root`), one level at a time,
 * each checked to be a real directory inside the root (see CREATE). Returns the directories created,
 * relative to the root.
 */
export async function makeParentsChecked(root: string, path: string, shown: string): Promise<string[]> {
  const parts = relative(root, dirname(path)).split(sep).filter((part) => part !== "");
  if (parts.length === 0) return [];
  const created = await create([root, parts.join("/"), ""], null, shown);
  return created.map((dir) => relative(root, dir));
}

/**
 * The note a result carries when the replaced file had other hard links: the rename gave this path a new
 * file, and the other names keep the old content. Writing in place instead would change every name of the
 * file, and one of them may sit outside the project (a hard link to ~/.bashrc planted in a repository).
 */
export function hardLinkNote(rel: string, info: Deno.FileInfo, change: "edit" | "write"): string {
  const links = info.nlink ?? 1;
  if (links <= 1) return "";
  return `\nnote: ${rel} has ${links} hard links; the ${change} replaced this path's content only (the other ` +
    `links keep the old content).`;
}

/**
 * Refuses to replace a file its owner may not write. The rename would succeed anyway (it needs only the
 * directory), silently overriding a mode someone set on purpose; `echo > file` would fail, and so do we.
 */
export function refuseReadOnly(rel: string, info: Deno.FileInfo): void {
  if (info.mode === null || (info.mode & 0o200) !== 0) return;
  const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
  throw new ToolError(
    `${rel} is read-only (mode ${mode}), so it was left unchanged: if changing it is intended, make it ` +
      `writable first (chmod u+w ${rel}).`,
  );
}
