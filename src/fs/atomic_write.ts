/** Atomic file replacement: write a temp file beside the target, then rename it over the target. */

import { basename, dirname, relative, sep } from "node:path";
import { helperScript } from "./helper_script.ts";
import { fileHelper } from "./file_helper.ts";
import { changedError, showPath } from "./path_guard.ts";
import { ToolError } from "./tool_error.ts";

/** Options of `atomicWrite`. */
export interface AtomicWriteOptions {
  /** Permission bits for the file (e.g. the mode of the file being replaced); default 0o644 less umask. */
  mode?: number;
}

/**
 * The one helper that creates anything on disk for the file tools, run by bash: Deno can only name files by
 * absolute paths, which a racing process can redirect by swapping a parent directory for a symlink between
 * any check and the use. bash works from its current directory instead: it enters each directory with
 * `cd -P` and proves where it is with the external `pwd -P` (the kernel's getcwd, whatever raced the cd; bash's
 * builtin only re-resolves a string), then creates
 * with single-component names relative to it, which no swap of a parent can redirect.
 *
 * $1 the real directory to start in; $2 the missing levels below it, "/"-joined ("" for none), created one
 * at a time, each checked to be a real directory; then, unless $3 is empty: stdin is written to the new temp
 * file $4 (noclobber: never an existing file, never through a symlink), given mode $5 (octal, or ""), the
 * directory is checked again, and $4 is renamed over $3. Prints each created directory. Exit 3: something
 * changed under us; 4: a parent exists and is not a directory; 5: the file system refused.
 */
const CREATE = `set -f -C
here=$1
cd -P -- "$here" 2>/dev/null && [ "$(env pwd -P)" = "$here" ] || exit 3
IFS=/
for part in $2; do
  here=$here/$part
  if [ ! -e "$part" ] && [ ! -L "$part" ]; then mkdir -- "$part" 2>/dev/null && printf '%s\\n' "$here"; fi
  [ -L "$part" ] && exit 3
  [ -e "$part" ] && [ ! -d "$part" ] && exit 4
  cd -P -- "$part" 2>/dev/null && [ "$(env pwd -P)" = "$here" ] || exit 3
done
[ -z "$3" ] && exit 0
cat >"$4" 2>/dev/null || exit 5
[ -z "$5" ] || chmod "$5" -- "$4" 2>/dev/null || { rm -f -- "$4"; exit 5; }
if [ "$(env pwd -P)" != "$here" ] || [ -L "$4" ] || [ ! -f "$4" ] || [ -d "$3" ]; then rm -f -- "$4"; exit 3; fi
mv -f -- "$4" "$3" 2>/dev/null || { rm -f -- "$4"; exit 5; }`;

/** Runs CREATE as a process of its own: its exit code and the directories it created. */
async function createOnce(args: string[], data: Uint8Array): Promise<{ code: number; created: string[] }> {
  const child = helperScript(CREATE, "tern-create", args, {
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(data).catch(() => {});
  await writer.close().catch(() => {});
  const { code, stdout } = await child.output();
  return { code, created: new TextDecoder().decode(stdout).split("\n").filter((line) => line !== "") };
}

/**
 * Runs CREATE, in the long-lived helper when it runs (file_helper.ts, the same steps), else as a process of
 * its own; resolves with the directories it created (absolute), or throws the refusal for its exit.
 */
async function create(args: string[], data: Uint8Array | null, shown: string): Promise<string[]> {
  const bytes = data ?? new Uint8Array();
  const helper = fileHelper();
  const { code, created } = (helper && await helper.create(args, bytes).catch(() => undefined)) ??
    await createOnce(args, bytes);
  if (code === 4) throw new ToolError(`${showPath(shown)}: a parent path exists and is not a directory.`);
  if (code === 3) throw changedError(shown);
  if (code !== 0) throw new ToolError(`${showPath(shown)}: the file system refused the write.`);
  return created;
}

/**
 * Replaces `path` (a real path: its parent resolved, inside the root) with `data` so readers see the old file
 * or the new one, never half of it. The temp file lives in the same directory (a rename is atomic only within
 * one filesystem) and is removed on failure. Create the temp file, check it, write, check the directory
 * again, rename: all from inside the directory, confirmed by the kernel (see CREATE).
 */
export async function atomicWrite(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const name = basename(path);
  const temp = `.${name}.tern-${crypto.randomUUID().slice(0, 8)}.tmp`;
  // Without a mode the file gets 0o666 less the umask, like any new file (bash creates it).
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
