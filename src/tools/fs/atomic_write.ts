/** Atomic file replacement: write a temp file beside the target, then rename it over the target. */

import { basename, dirname, join } from "node:path";
import { ToolError } from "../tool.ts";

/** Options of `atomicWrite`. */
export interface AtomicWriteOptions {
  /** Permission bits for the file (e.g. the mode of the file being replaced); default 0o644 less umask. */
  mode?: number;
}

/**
 * Replaces `path` with `data` so readers see the old file or the new one, never half of it. The temp
 * file lives in the same directory (a rename is atomic only within one filesystem) and is removed on failure.
 */
export async function atomicWrite(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const temp = join(dirname(path), `.${basename(path)}.tern-${suffix}.tmp`);
  try {
    await Deno.writeFile(temp, data, { createNew: true, mode: options.mode ?? 0o644 });
    // The creation mode is filtered by the umask; an existing file's mode must come back exactly.
    if (options.mode !== undefined) await Deno.chmod(temp, options.mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
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
