/** Server-sent events: bytes in, events (name and `data` payload) out. The wire modules read them. */

/** One dispatched event: its `event:` name ("message" when none was given) and its joined `data` lines. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Incremental SSE parser over decoded text. Feed text in any pieces with `push`; it returns the events
 * completed so far. `flush` ends the stream and returns a last unterminated event. Events without data
 * are not dispatched (as the SSE spec says); `id:` and `retry:` carry nothing we use.
 */
export class SseParser {
  #line = "";
  #data: string[] = [];
  #hasData = false;
  #event = "";
  /** A chunk ended on "\r": a "\n" starting the next chunk belongs to the same line break. */
  #skipLf = false;

  /** Consumes the next piece of text; returns the events it completed. */
  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
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
  flush(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.#line.length > 0) this.#takeLine(out);
    this.#dispatch(out);
    return out;
  }

  #takeLine(out: SseEvent[]): void {
    const line = this.#line;
    this.#line = "";
    if (line.length === 0) return this.#dispatch(out);
    if (line.charCodeAt(0) === 58) return; // ":" starts a comment (keep-alives)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "event") this.#event = value;
    if (field !== "data") return;
    this.#data.push(value);
    this.#hasData = true;
  }

  #dispatch(out: SseEvent[]): void {
    if (this.#hasData) out.push({ event: this.#event || "message", data: this.#data.join("\n") });
    this.#data = [];
    this.#hasData = false;
    this.#event = "";
  }
}

/**
 * Reads an SSE byte stream and yields each event. Chunk boundaries may fall anywhere, including inside a
 * UTF-8 character. Stopping the iteration early cancels the stream.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
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
