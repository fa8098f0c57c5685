/** The one truncation policy for tool output: keep the head and the tail, mark the cut in between. */

/** Longest line read_file shows before cutting it. */
export const MAX_LINE_CHARS = 2000;

/** Characters of output a tool returns to the model at most (execute_command, list_dir). */
export const MAX_OUTPUT_CHARS = 8000;

/** The marker put where text was removed from the middle. */
function cutMarker(count: number): string {
  return `\n… [${count} characters cut] …\n`;
}

/** Moves `index` off the low half of a surrogate pair, so a cut never splits a character. */
export function safeIndex(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

/**
 * Collects text that may be unbounded (a `yes` flood) in bounded memory: the first `headMax` and the
 * last `tailMax` characters are kept, everything between is only counted.
 */
export class HeadTail {
  #head = "";
  #tail = "";
  #dropped = 0;

  /** `max` characters are kept in all: half from the head, half from the tail. */
  constructor(readonly max: number) {}

  get #headMax(): number {
    return Math.ceil(this.max / 2);
  }

  get #tailMax(): number {
    return Math.floor(this.max / 2);
  }

  /** Adds text at the end. */
  push(text: string): this {
    if (this.#head.length < this.#headMax) {
      const room = safeIndex(text, this.#headMax - this.#head.length);
      this.#head += text.slice(0, room);
      text = text.slice(room);
    }
    this.#tail += text;
    // Trim only when the tail is well past its size, so a flood costs amortised O(1) per character.
    if (this.#tail.length > this.#tailMax * 2 + 4096) this.#trimTail();
    return this;
  }

  /** The kept text, with the cut marked when something was removed. */
  toString(): string {
    if (this.#head.length + this.#tail.length > this.max) this.#trimTail();
    if (this.#dropped === 0) return this.#head + this.#tail;
    return this.#head + cutMarker(this.#dropped) + this.#tail;
  }

  #trimTail(): void {
    const start = safeIndex(this.#tail, this.#tail.length - this.#tailMax);
    if (start <= 0) return;
    this.#dropped += start;
    this.#tail = this.#tail.slice(start);
  }
}

/** Keeps at most `max` characters of `text`: its head and tail, with the cut marked. */
export function truncateMiddle(text: string, max: number = MAX_OUTPUT_CHARS): string {
  if (text.length <= max) return text;
  return new HeadTail(max).push(text).toString();
}

/** Cuts one long line after `max` characters, saying how many were cut. */
export function cutLine(line: string, max: number = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  const keep = safeIndex(line, max);
  return `${line.slice(0, keep)}… [line cut: ${line.length - keep} more characters]`;
}

/**
 * Cuts a long line to a window of about `max` characters that shows position `focus` (where a match
 * starts), marking what was cut on either side; a short line comes back as is.
 */
export function cutAround(line: string, focus: number, max: number): string {
  if (line.length <= max) return line;
  // A little text before the match gives it context; the rest of the window follows it.
  const lead = Math.min(Math.floor(max / 4), 80);
  let start = Math.max(0, Math.min(focus - lead, line.length - max));
  if (start > 0) start = safeIndex(line, start);
  const end = safeIndex(line, Math.min(line.length, start + max));
  const before = start > 0 ? `[${start} characters cut] …` : "";
  const after = end < line.length ? `… [line cut: ${line.length - end} more characters]` : "";
  return `${before}${line.slice(start, end)}${after}`;
}
