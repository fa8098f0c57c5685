/**
 * One growing byte buffer, reused from request to request (private to src/llm). A long session's request
 * bodies are hundreds of KB each; a fresh array per request is external memory V8 collects only when 64 MB
 * of it have piled up (the JS heap stays small), which showed as tens of MB of peak RSS over 1,000 turns.
 * Writes return views into the one buffer: a view is valid until the next write, so callers use it at once
 * (fetch copies its body when called).
 */
export class ByteBuffer {
  #bytes = new Uint8Array(0);

  /** `parts` joined, as a view of the buffer from `from` on kept as written by the last write. */
  write(parts: readonly Uint8Array[], from = 0): Uint8Array<ArrayBuffer> {
    let length = from;
    for (const part of parts) length += part.length;
    if (length > this.#bytes.length) {
      // Doubling: a session's growing bodies reallocate a handful of times, not once per request.
      const grown = new Uint8Array(Math.max(length, 2 * this.#bytes.length, 4096));
      grown.set(this.#bytes.subarray(0, from));
      this.#bytes = grown;
    }
    let at = from;
    for (const part of parts) {
      this.#bytes.set(part, at);
      at += part.length;
    }
    return this.#bytes.subarray(0, length);
  }
}
