/** Byte arrays joined: the one helper the wire, the ACP line cap and the MCP reader share. */

/** The bytes of `parts` one after another, in new memory (never a view of a part). */
export function joinedBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
