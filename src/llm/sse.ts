/** Server-sent events: bytes in, `data` payloads out. Only `data` matters for chat-completions streams. */

/**
 * Incremental SSE parser over decoded text. Feed text in any pieces with `push`; it returns the `data`
 * payloads of the events completed so far. `flush` ends the stream and returns a last unterminated event.
 */
export class SseParser {
  #line = "";
  #data: string[] = [];
  #hasData = false;
  /** A chunk ended on "\r": a "\n" starting the next chunk belongs to the same line break. */
  #skipLf = false;

  /** Consumes the next piece of text; returns the payloads of events it completed. */
  push(text: string): string[] {
    const out: string[] = [];
    if (text.length === 0) return out;
    let start = 0;
    if (this.#skipLf && text.charCodeAt(0) === 10) start = 1;
    this.#skipLf = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.#line += text.slice(start, i);
      this.#takeLine(out);
      if (c === 13) {
        if (i + 1 === text.length) this.#skipLf = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.#line += text.slice(start);
    return out;
  }

  /** Ends the stream: a pending line and event are delivered even without the final blank line. */
  flush(): string[] {
    const out: string[] = [];
    if (this.#line.length > 0) this.#takeLine(out);
    this.#dispatch(out);
    return out;
  }

  #takeLine(out: string[]): void {
    const line = this.#line;
    this.#line = "";
    if (line.length === 0) return this.#dispatch(out);
    if (line.charCodeAt(0) === 58) return; // ":" starts a comment (keep-alives)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") return; // event:, id:, retry: carry nothing we use
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    this.#data.push(value);
    this.#hasData = true;
  }

  #dispatch(out: string[]): void {
    if (this.#hasData) out.push(this.#data.join("\n"));
    this.#data = [];
    this.#hasData = false;
  }
}

/**
 * Reads an SSE byte stream and yields each event's `data` payload. Chunk boundaries may fall anywhere,
 * including inside a UTF-8 character. Stopping the iteration early cancels the stream.
 */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  let finished = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    finished = true;
    yield* parser.push(decoder.decode());
    yield* parser.flush();
  } finally {
    // An early exit (consumer break, error) must release the connection, not leave it half-read.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
