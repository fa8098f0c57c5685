/**
 * Per-line normalisation for edit_file's second matching layer: NFKC, curly quotes and dashes made plain,
 * special spaces made spaces, trailing whitespace dropped; with a map from normalised offsets back to the
 * original text, so a match found in the normalised text replaces the exact original span.
 */

const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const SINGLE_QUOTES = /[\u2018-\u201B]/g;
const DOUBLE_QUOTES = /[\u201C-\u201F]/g;
const SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;
const MAPPED =
  /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D\u2018-\u201F\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/;
const NON_ASCII = /[^\p{ASCII}]/u;
/** A run of ASCII no combining mark follows (kept as is), or one character with the marks that follow it. */
const PIECES = /(\p{ASCII}+(?!\p{M}))|[^]\p{M}*/gu;

/** Fields of one segment in `LineMap.segments`, which holds them flat, four numbers per segment. */
const NORM = 0, ORIG = 1, ORIG_LENGTH = 2, SAME = 3, STRIDE = 4;

/** One line of the original text and where its normalised form sits. */
interface LineMap {
  normStart: number;
  normLength: number;
  origStart: number;
  /** End of the line's content in the original: after trailing whitespace, before "\r\n" or "\n". */
  origEnd: number;
  /**
   * null when the normalised line is a prefix of the original; else segments (normalised offset, original
   * offset, original length, 1 when both sides are the same text), in order: inside a segment whose sides
   * differ ("ﬁ" → "fi") there is no original boundary.
   */
  segments: number[] | null;
}

/** A text in normalised form with the map back to the original. */
export interface NormalisedText {
  /** The normalised text; it has exactly the original's lines, so line numbers carry over. */
  text: string;
  lines: LineMap[];
}

function plain(piece: string): string {
  return piece.replace(DASHES, "-").replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(
    SPACES,
    " ",
  );
}

/** True when normalising `line` can only drop trailing whitespace (almost every line of code: fast path). */
function unchangedByNormalising(line: string): boolean {
  // A line already in NFKC has each of its characters in NFKC too, so per-character work would agree.
  return !NON_ASCII.test(line) || (!MAPPED.test(line) && line.normalize("NFKC") === line);
}

/** Normalises one line piece by piece, recording a segment per piece (runs of unchanged text merged). */
function mapLine(line: string, origStart: number): { text: string; segments: number[] } {
  let text = "";
  const segments: number[] = [];
  for (const match of line.matchAll(PIECES)) {
    const [chars, ascii] = match;
    const piece = ascii !== undefined ? chars : plain(chars.normalize("NFKC"));
    const same = piece === chars || (piece.length === 1 && chars.length === 1) ? 1 : 0;
    const at = origStart + match.index;
    const last = segments.length - STRIDE;
    const joins = same === 1 && last >= 0 && segments[last + SAME] === 1 &&
      segments[last + ORIG] + segments[last + ORIG_LENGTH] === at;
    if (joins) segments[last + ORIG_LENGTH] += chars.length;
    else segments.push(text.length, at, chars.length, same);
    text += piece;
  }
  return { text: text.trimEnd(), segments };
}

/** Normalises `text` line by line, keeping the map back to original offsets. */
export function normaliseText(text: string): NormalisedText {
  const out: string[] = [];
  const lines: LineMap[] = [];
  let origStart = 0;
  let normStart = 0;
  for (const raw of text.split("\n")) {
    const origEnd = origStart + raw.length - (raw.endsWith("\r") ? 1 : 0);
    let normal: string;
    let segments: number[] | null = null;
    if (unchangedByNormalising(raw)) normal = raw.trimEnd();
    else ({ text: normal, segments } = mapLine(raw, origStart));
    out.push(normal);
    lines.push({ normStart, normLength: normal.length, origStart, origEnd, segments });
    origStart += raw.length + 1;
    normStart += normal.length + 1;
  }
  return { text: out.join("\n"), lines };
}

/** Binary search: the last index below `count` whose value is ≤ `at` (values ascend; index 0 always qualifies). */
function lastAtOrBefore(count: number, valueOf: (i: number) => number, at: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (valueOf(mid) <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}

function lineAt(normalised: NormalisedText, at: number): LineMap {
  const { lines } = normalised;
  return lines[lastAtOrBefore(lines.length, (i) => lines[i].normStart, at)];
}

/** The start (in `segments`) of the segment holding line offset `offset`. */
function segmentAt(segments: number[], offset: number): number {
  const count = segments.length / STRIDE;
  return lastAtOrBefore(count, (i) => segments[i * STRIDE + NORM], offset) * STRIDE;
}

/**
 * The original offset of the boundary at normalised offset `at`, or -1 when it falls inside the expansion
 * of one original character (say, between the "f" and the "i" that "ﬁ" becomes). A line's normalised end
 * maps past its trailing whitespace, so a match that ends a line takes that whitespace with it; on a line
 * that is only whitespace, start and end coincide, and `preferEnd` picks the end.
 */
export function toOriginal(normalised: NormalisedText, at: number, preferEnd = false): number {
  const line = lineAt(normalised, at);
  const offset = at - line.normStart;
  if (offset >= line.normLength && (offset > 0 || preferEnd)) return line.origEnd;
  if (offset === 0 || line.segments === null) return line.origStart + offset;
  const { segments } = line;
  const segment = segmentAt(segments, offset);
  const inside = offset - segments[segment + NORM];
  if (inside === 0 || segments[segment + SAME] === 1) return segments[segment + ORIG] + inside;
  return -1;
}

/** The original span of the character whose expansion contains normalised offset `at` (for refusals). */
export function characterAt(normalised: NormalisedText, at: number): { start: number; end: number } {
  const line = lineAt(normalised, at);
  const segments = line.segments!;
  const segment = segmentAt(segments, at - line.normStart);
  const start = segments[segment + ORIG];
  return { start, end: start + segments[segment + ORIG_LENGTH] };
}
