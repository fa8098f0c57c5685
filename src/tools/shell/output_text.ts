/**
 * A command's output bytes as text the model can read: valid UTF-8 passes through, bytes that are not UTF-8
 * and control characters (but tab, newline, carriage return, escape and BEL, which the output cleaner
 * handles) are shown escaped (`\x00`, `\xff`) instead of as U+FFFD garbage. NUL or non-UTF-8 bytes mark
 * the output binary. BEL passes because it ends OSC sequences (titles, OSC 8 links, OSC 52): escaped here,
 * the sequence would have no end, and the cleaner would take the rest of its line with it.
 */

/** Control characters shown escaped (one test, then all replaced). */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x06\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/;
const CONTROLS = new RegExp(CONTROL.source, "g");

/** Length of the UTF-8 sequence `lead` starts, or 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether `bytes[at]` may follow `lead` as its first continuation byte (no overlong forms, no surrogates). */
function secondOk(lead: number, byte: number): boolean {
  if (lead === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
  if (lead === 0xed) return byte >= 0x80 && byte <= 0x9f;
  if (lead === 0xf0) return byte >= 0x90 && byte <= 0xbf;
  if (lead === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  return byte >= 0x80 && byte <= 0xbf;
}

/** Length of the valid UTF-8 character at `at` (1 to 4), or 0 when the byte there must be escaped. */
function validAt(bytes: Uint8Array, at: number): number {
  const lead = bytes[at];
  const length = sequenceLength(lead);
  if (length <= 1) return length;
  if (at + length > bytes.length) return 0;
  if (!secondOk(lead, bytes[at + 1])) return 0;
  for (let i = 2; i < length; i++) {
    if (bytes[at + i] < 0x80 || bytes[at + i] > 0xbf) return 0;
  }
  return length;
}

/** Where a chunk's complete characters end: a character cut by the chunk's end waits for the next one. */
function completeEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back];
    if (byte < 0x80 || byte >= 0xc0) return sequenceLength(byte) > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function escaped(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, "0")}`;
}

/** Decodes a byte stream chunk by chunk; counts the bytes and remembers whether any had to be escaped. */
export class OutputText {
  /** Bytes decoded so far. */
  bytes = 0;
  /** True once a NUL byte or a byte that is not UTF-8 was seen (and escaped). */
  binary = false;
  #pending = new Uint8Array(0);
  readonly #strict = new TextDecoder("utf-8", { fatal: true });
  readonly #plain = new TextDecoder();

  /** The text of `chunk`; a character cut at its end is held for the next chunk. */
  push(chunk: Uint8Array): string {
    this.bytes += chunk.length;
    const bytes = this.#pending.length === 0 ? chunk : new Uint8Array([...this.#pending, ...chunk]);
    const end = completeEnd(bytes);
    this.#pending = bytes.slice(end);
    return this.#decode(bytes.subarray(0, end));
  }

  /** The text of what is left: a character the stream cut short is shown escaped. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = new Uint8Array(0);
    return this.#escapeAll(rest, 0);
  }

  #decode(bytes: Uint8Array): string {
    let text: string;
    try {
      // Fast path: text (the usual case, and a `yes` flood) is decoded in one call.
      text = this.#strict.decode(bytes);
    } catch {
      text = this.#escapeAll(bytes, bytes.length);
    }
    if (!CONTROL.test(text)) return text;
    if (text.includes("\0")) this.binary = true;
    return text.replace(CONTROLS, (char) => escaped(char.charCodeAt(0)));
  }

  /** Valid runs decoded as they are, every other byte escaped; so is every byte from `from` on (cut short). */
  #escapeAll(bytes: Uint8Array, from: number): string {
    let text = "";
    let run = 0;
    for (let at = 0; at < bytes.length;) {
      const length = at >= from ? 0 : validAt(bytes, at);
      if (length > 0) {
        at += length;
        continue;
      }
      this.binary = true;
      text += this.#plain.decode(bytes.subarray(run, at)) + escaped(bytes[at]);
      run = ++at;
    }
    return text + this.#plain.decode(bytes.subarray(run));
  }
}
