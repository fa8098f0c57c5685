/** Whether a line-per-record file ends where a record ends: a tern killed mid-append leaves half a line. */

/** True when the file at `path` is empty or ends with a newline; also when it cannot be read (the write says). */
export function endsLine(path: string): boolean {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path, { read: true });
    const size = file.statSync().size;
    if (size === 0) return true;
    file.seekSync(size - 1, Deno.SeekMode.Start);
    const last = new Uint8Array(1);
    return file.readSync(last) !== 1 || last[0] === 0x0a;
  } catch {
    return true;
  } finally {
    file?.close();
  }
}
