/** A file found by a search read as text, with the checks that keep a swapped, huge or binary file out. */

import { MAX_FILE_BYTES } from "../../fs/path_guard.ts";

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
