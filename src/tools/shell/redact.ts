/** Redaction of secret values (the API key) from streamed command output, also across chunk boundaries. */

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/** Shorter values are not treated as secrets: redacting them would mangle ordinary output. */
export const MIN_SECRET_CHARS = 8;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Replaces every occurrence of the secrets in text that arrives in chunks. It holds back the last
 * (longest secret − 1) characters of each chunk until the next one arrives, so a secret split across
 * chunks is still seen whole; redact before any truncation, so no cut can split a secret into halves.
 */
export class Redactor {
  readonly #secrets: string[];
  readonly #hold: number;
  #pending = "";

  /** Values shorter than MIN_SECRET_CHARS are ignored; an empty list makes the redactor a pass-through. */
  constructor(secrets: Iterable<string>) {
    const kept = new Set([...secrets].filter((secret) => secret.length >= MIN_SECRET_CHARS));
    // Longest first: where two secrets start at the same place, the longer one is replaced whole.
    this.#secrets = [...kept].sort((a, b) => b.length - a.length);
    this.#hold = Math.max(0, (this.#secrets[0]?.length ?? 0) - 1);
  }

  /** Takes the next chunk; returns the redacted text that is safe to release now. */
  push(text: string): string {
    if (this.#secrets.length === 0) return text;
    const buffer = this.#pending + text;
    let limit = buffer.length - this.#holdFor(buffer);
    if (limit > 0 && isHighSurrogate(buffer.charCodeAt(limit - 1))) limit--;
    const { out, end } = this.#replace(buffer, limit);
    this.#pending = buffer.slice(end);
    return out;
  }

  /** Releases what is held back at the end of the stream, redacting a secret cut off at the very end too. */
  flush(): string {
    const buffer = this.#pending;
    this.#pending = "";
    const { out } = this.#replace(buffer, buffer.length);
    for (const secret of this.#secrets) {
      // The command died (or its output was cut) in the middle of printing a secret: hide the start too.
      for (let length = secret.length - 1; length >= MIN_SECRET_CHARS; length--) {
        if (out.endsWith(secret.slice(0, length))) return out.slice(0, out.length - length) + REDACTED;
      }
    }
    return out;
  }

  /**
   * How much of the end of `buffer` must wait for the next chunk: its longest end that could be the start of
   * a secret (at most `hold` characters). Everything else is released now, so a live view of the output
   * lags behind only where a secret might be arriving.
   */
  #holdFor(buffer: string): number {
    for (let i = Math.max(0, buffer.length - this.#hold); i < buffer.length; i++) {
      const rest = buffer.slice(i);
      if (this.#secrets.some((secret) => secret.startsWith(rest))) return buffer.length - i;
    }
    return 0;
  }

  /**
   * Redacts `buffer` up to `limit`: a secret starting before `limit` is whole inside the buffer (it holds
   * `hold` more characters), so it is replaced and the released part may end past `limit`.
   */
  #replace(buffer: string, limit: number): { out: string; end: number } {
    const next = this.#secrets.map((secret) => buffer.indexOf(secret));
    let out = "";
    let i = 0;
    while (i < limit) {
      let best = -1;
      for (let k = 0; k < next.length; k++) {
        if (next[k] !== -1 && next[k] < i) next[k] = buffer.indexOf(this.#secrets[k], i);
        if (next[k] !== -1 && (best === -1 || next[k] < next[best])) best = k;
      }
      if (best === -1 || next[best] >= limit) {
        out += buffer.slice(i, limit);
        return { out, end: limit };
      }
      out += buffer.slice(i, next[best]) + REDACTED;
      i = next[best] + this.#secrets[best].length;
    }
    return { out, end: Math.max(i, 0) };
  }
}
