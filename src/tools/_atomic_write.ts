/** Atomic file replacement: write a temp file beside the target, then rename it over the target. */

import { basename, dirname, join } from "node:path";

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
