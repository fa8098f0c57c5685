/**
 * The stdio reader of an MCP server's messages, in bounded memory. The SDK's own reader closes the whole
 * connection when one message passes 10 MB (a 20 MB tool result killed the server); this one keeps a message's
 * first MAX_LINE_BYTES and its last TAIL_BYTES, drops the middle, and answers the request it belonged to with
 * the start of its text and a note, so the call gets a cut result and the server lives on.
 */
import { joinedBytes } from "../../bytes.ts";
/** Bytes of one message read whole; a longer one is cut. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Bytes of a cut message kept from its end: where a JSON-RPC answer's `id` often is. */
const TAIL_BYTES = 64 * 1024;
/** Characters of a cut result's text passed on (tern's tool-result cap cuts it further). */
const KEPT_TEXT_CHARS = 256 * 1024;
/** As Buffer's toString("utf8"): a leading byte-order mark is kept, not eaten (a line with one is not JSON). */
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** What the transport reads messages with (the SDK's ReadBuffer's shape). */
export interface MessageReader {
  append(chunk: Uint8Array): void;
  readMessage(): unknown;
  clear(): void;
}

/** A line-by-line JSON-RPC reader that cuts over-long messages instead of failing on them. */
export class CappedReadBuffer implements MessageReader {
  readonly #maxLine: number;
  #line: Uint8Array[] = [];
  #lineBytes = 0;
  /** The end of a line that passed the cap (its head is in #line). */
  #tail = new Uint8Array(0);
  #ready: (string | { cut: string; tail: string; bytes: number })[] = [];

  constructor(options: { maxLineBytes?: number } = {}) {
    this.#maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  /** Takes the next bytes of the stream; never throws. */
  append(chunk: Uint8Array): void {
    // A plain view of the chunk (the SDK hands a Buffer, whose slice() shares memory): what is kept of it
    // is copied out by slice(), so the chunk's memory may be reused.
    let rest = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (rest.length > 0) {
      const newline = rest.indexOf(0x0a);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      this.#add(piece);
      if (newline === -1) break;
      this.#finishLine();
      rest = rest.subarray(newline + 1);
    }
  }

  /** The next whole message (parsed JSON), null when none is complete; throws for a line that is not JSON. */
  readMessage(): unknown {
    const next = this.#ready.shift();
    if (next === undefined) return null;
    if (typeof next === "string") return JSON.parse(next.replace(/\r$/, ""));
    return cutAnswer(next);
  }

  /** Forgets everything buffered. */
  clear(): void {
    this.#line = [];
    this.#lineBytes = 0;
    this.#tail = new Uint8Array(0);
    this.#ready = [];
  }

  #add(piece: Uint8Array): void {
    const room = this.#maxLine - Math.min(this.#lineBytes, this.#maxLine);
    if (room > 0) this.#line.push(piece.slice(0, room));
    if (piece.length > room) {
      const joined = joinedBytes([this.#tail, piece.subarray(room)]);
      this.#tail = joined.slice(Math.max(0, joined.length - TAIL_BYTES));
    }
    this.#lineBytes += piece.length;
  }

  #finishLine(): void {
    const head = UTF8.decode(joinedBytes(this.#line));
    if (this.#lineBytes <= this.#maxLine) {
      if (head.trim() !== "") this.#ready.push(head);
    } else {
      this.#ready.push({ cut: head, tail: UTF8.decode(this.#tail), bytes: this.#lineBytes });
    }
    this.#line = [];
    this.#lineBytes = 0;
    this.#tail = new Uint8Array(0);
  }
}

/**
 * The answer a cut message stands for: its request's id (from the start, where most servers put it, or the
 * end, where the TypeScript SDK does) with a text result of what its text began with and a note.
 */
function cutAnswer(line: { cut: string; tail: string; bytes: number }): unknown {
  const atStart = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(line.cut);
  const atEnd = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*}\s*$/.exec(line.tail.replace(/\r$/, ""));
  const id = atStart?.[1] ?? atEnd?.[1];
  const size = `${line.bytes.toLocaleString("en-US")} bytes`;
  const note = `[cut by tern: the MCP server's answer was ${size}, over the ${
    (MAX_LINE_BYTES / 1024 / 1024).toFixed(0)
  } MB tern reads of one message; the rest was dropped]`;
  // No id to answer: nothing waits on it that can be told (a notification), so it is only dropped.
  if (id === undefined) {
    return { jsonrpc: "2.0", method: "notifications/message", params: { level: "warning", data: note } };
  }
  const text = textStart(line.cut);
  return {
    jsonrpc: "2.0",
    id: JSON.parse(id),
    result: { content: [{ type: "text", text: text === "" ? note : `${text}\n${note}` }] },
  };
}

/** The start of the first `"text"` string in a cut message, unescaped as far as it is whole. */
function textStart(head: string): string {
  const found = /"text"\s*:\s*"/.exec(head);
  if (!found) return "";
  let raw = head.slice(found.index + found[0].length, found.index + found[0].length + KEPT_TEXT_CHARS * 2);
  const end = /(?:^|[^\\])(?:\\\\)*"/.exec(raw);
  if (end) raw = raw.slice(0, end.index + end[0].length - 1);
  // A cut in the middle of an escape (`\`, `\u00`) would not parse: drop it.
  raw = raw.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "");
  try {
    return (JSON.parse(`"${raw}"`) as string).slice(0, KEPT_TEXT_CHARS);
  } catch {
    return "";
  }
}
