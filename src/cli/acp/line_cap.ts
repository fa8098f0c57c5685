/**
 * The size cap on the editor's JSON-RPC lines. One line over the cap is never buffered whole: its bytes are
 * dropped as they come, and once it ends the editor gets a JSON-RPC error (with the request's id when its
 * first bytes name one) while the connection lives on.
 */
import { joinedBytes } from "../../bytes.ts";

/** The longest line taken (a prompt is capped at 1 MB; embedded files and history fit well inside). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Bytes kept of a dropped line, to find its id. */
const HEAD_BYTES = 4096;

const NEWLINE = 10;

/**
 * `input` with every line over `max` bytes taken out; `refuse(id)` is called once for each (the id of the
 * request as its head names it, or null).
 */
export function cappedLines(
  input: ReadableStream<Uint8Array>,
  refuse: (id: string | number | null) => void,
  max = MAX_LINE_BYTES,
): ReadableStream<Uint8Array> {
  let pending: Uint8Array[] = [];
  let length = 0;
  let dropping: Uint8Array | undefined; // the head of a line being dropped
  const take = (chunk: Uint8Array, out: TransformStreamDefaultController<Uint8Array>) => {
    let start = 0;
    while (start < chunk.length) {
      const at = chunk.indexOf(NEWLINE, start);
      const end = at < 0 ? chunk.length : at + 1;
      const part = chunk.subarray(start, end);
      start = end;
      if (dropping) {
        if (at >= 0) {
          refuse(requestId(dropping));
          dropping = undefined;
        }
        continue;
      }
      if (length + part.length > max) {
        dropping = concat([...pending, part]).subarray(0, HEAD_BYTES);
        pending = [];
        length = 0;
        if (at >= 0) {
          refuse(requestId(dropping));
          dropping = undefined;
        }
        continue;
      }
      pending.push(part);
      length += part.length;
      if (at >= 0) {
        out.enqueue(concat(pending));
        pending = [];
        length = 0;
      }
    }
  };
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, out) => take(chunk, out),
      flush: (out) => {
        if (dropping) refuse(requestId(dropping));
        else if (length > 0) out.enqueue(concat(pending));
      },
    }),
  );
}

/** The JSON-RPC error line for a dropped request. */
export function tooLongError(id: string | number | null, max = MAX_LINE_BYTES): string {
  const message = `the message is over ${
    max / 1024 / 1024
  } MB: it was dropped (send files as paths, not content)`;
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message } }) + "\n";
}

/** The id a line's head names (`"id": 7` or `"id": "x"` before its bulk), else null. */
function requestId(head: Uint8Array): string | number | null {
  const text = new TextDecoder().decode(head);
  const match = /^\s*\{(?:[^{}]*?,)?\s*"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,15})/.exec(text);
  if (!match) return null;
  return match[1].startsWith('"') ? JSON.parse(match[1]) : Number(match[1]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0] : joinedBytes(parts);
}
