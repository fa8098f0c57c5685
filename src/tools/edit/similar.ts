/**
 * Finds where in a file the text an edit looked for most nearly is, so a "not found" can show it: a window
 * of the needle's line count slides over the file, scored by the Dice coefficient of character bigrams.
 * The window's bigram counts are updated as lines enter and leave it, so the cost is linear in the file.
 */

/** The best window: 1-based first and last line, and its score from 0 (nothing shared) to 1. */
export interface SimilarRegion {
  first: number;
  last: number;
  score: number;
}

/** Whitespace runs count as one space and indentation not at all: re-indented code still scores high. */
function simplify(line: string): string {
  const trimmed = line.trim();
  // Testing first is several times cheaper than replacing on the many lines with nothing to replace.
  return /\s\s|[^\S ]/.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
}

/** The bigram at `i` of a line followed by its end, as one number per pair of UTF-16 units. */
function bigramAt(line: string, i: number): number {
  return line.charCodeAt(i) * 65536 + (i + 1 < line.length ? line.charCodeAt(i + 1) : 10);
}

/** Lines that matter, simplified: a final newline does not add an empty line. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines.map(simplify);
}

/** The needle's bigrams: a slot per distinct bigram, how many of each, and a quick filter for the rest. */
class NeedleBigrams {
  readonly slots = new Map<number, number>();
  readonly filter = new Uint8Array(65536);
  wanted: number[] = [];
  total = 0;

  constructor(lines: string[]) {
    for (const line of lines) {
      this.total += line.length;
      for (let i = 0; i < line.length; i++) {
        const bigram = bigramAt(line, i);
        let slot = this.slots.get(bigram);
        if (slot === undefined) {
          slot = this.wanted.push(0) - 1;
          this.slots.set(bigram, slot);
          this.filter[hash(bigram)] = 1;
        }
        this.wanted[slot]++;
      }
    }
  }
}

function hash(bigram: number): number {
  return (bigram ^ (bigram >>> 16) ^ (bigram >>> 7)) & 0xffff;
}

/** A sliding multiset of bigrams that keeps its intersection with the needle's up to date. */
class Window {
  readonly #have: Int32Array;
  intersection = 0;
  total = 0;

  constructor(private readonly needle: NeedleBigrams) {
    this.#have = new Int32Array(needle.wanted.length);
  }

  /** Adds a line's bigrams (`sign` 1) or takes them away again (`sign` -1). */
  move(line: string, sign: 1 | -1): void {
    this.total += sign * line.length;
    // Most of a file's bigrams are not in the needle; the filter turns them away without a map lookup.
    const { filter, slots, wanted } = this.needle;
    for (let i = 0; i < line.length; i++) {
      const bigram = bigramAt(line, i);
      if (filter[hash(bigram)] === 0) continue;
      const slot = slots.get(bigram);
      if (slot === undefined) continue;
      const had = this.#have[slot];
      this.#have[slot] = had + sign;
      // A copy counts towards the intersection while the window holds no more of it than the needle.
      if (Math.max(had, had + sign) <= wanted[slot]) this.intersection += sign;
    }
  }
}

/** The window of `text` most similar to `needle`, or null when the file or the needle is empty. */
export function mostSimilarRegion(text: string, needle: string): SimilarRegion | null {
  if (text === "" || needle.trim() === "") return null;
  const wanted = linesOf(needle);
  const bigrams = new NeedleBigrams(wanted);
  const lines = linesOf(text);
  const size = Math.min(wanted.length, lines.length);
  const window = new Window(bigrams);
  for (let i = 0; i < size; i++) window.move(lines[i], 1);
  const score = () => (2 * window.intersection) / (window.total + bigrams.total || 1);
  let best: SimilarRegion = { first: 1, last: size, score: score() };
  for (let next = size; next < lines.length; next++) {
    window.move(lines[next], 1);
    window.move(lines[next - size], -1);
    const now = score();
    if (now > best.score) best = { first: next - size + 2, last: next + 1, score: now };
  }
  return best;
}
