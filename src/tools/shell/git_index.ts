/**
 * The gitlinks (submodule entries, mode 160000) in a git index file, read without running git: the user's
 * `git status` goes into every populated gitlink and runs what that repository's config names, so the sandbox
 * compares them before and after a command. Reads index versions 2, 3 and 4 (path prefix compression).
 */

/** Mode of a gitlink entry in the index. */
const GITLINK = 0o160000;
/** Bytes before an entry's object id: ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each, 2 for times). */
const FIXED = 40;

/** The varint of index version 4 (offset encoding): value and the offset after it. */
function varint(bytes: Uint8Array, at: number): [number, number] {
  let byte = bytes[at++];
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = bytes[at++];
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return [value, at];
}

/**
 * The paths of the gitlinks in index `bytes` (`idBytes` 20 for SHA-1, 32 for SHA-256); undefined when it is
 * not an index this reads (then the caller treats every nested repository as unknown).
 */
export function gitlinks(bytes: Uint8Array, idBytes = 20): string[] | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x44495243) return undefined; // "DIRC"
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return undefined;
  const count = view.getUint32(8);
  const decoder = new TextDecoder();
  const found: string[] = [];
  let at = 12;
  let previous: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + FIXED + idBytes + 2 > bytes.length) return undefined;
    const mode = view.getUint32(at + 24);
    const flags = view.getUint16(at + FIXED + idBytes);
    at += FIXED + idBytes + 2 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let path: Uint8Array;
    if (version === 4) {
      const [strip, next] = varint(bytes, at);
      const end = bytes.indexOf(0, next);
      if (end < 0 || strip > previous.length) return undefined;
      const kept = previous.length - strip;
      path = new Uint8Array(kept + end - next);
      path.set(previous.subarray(0, kept));
      path.set(bytes.subarray(next, end), kept);
      at = end + 1;
      previous = path;
    } else {
      const end = bytes.indexOf(0, at);
      if (end < 0) return undefined;
      path = bytes.subarray(at, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7);
    }
    if ((mode & 0o170000) === GITLINK) found.push(decoder.decode(path));
  }
  return found;
}

/** The gitlinks in the index file at `path`; undefined when it is missing or unreadable. */
export function gitlinksIn(path: string, idBytes = 20): string[] | undefined {
  try {
    return gitlinks(Deno.readFileSync(path), idBytes);
  } catch {
    return undefined;
  }
}
