/**
 * Line endings for edit_file: read_file shows CRLF and LF lines alike, so matching looks at a view of the file
 * with every CRLF made LF (mapped back to the original offsets), and the replacement takes the ending of the
 * place it lands, whatever endings the model wrote.
 */

/** A line break as written in a file. */
export type LineEnding = "\r\n" | "\n" | "\r";

/** The file's text with CRLF made LF, and where the dropped CRs were, so view offsets map back. */
export interface LfView {
  text: string;
  /** View offsets of the LFs that had a CR before them, ascending. */
  crlfAt: number[];
}

/** The LF view of `text` (the text itself, with nothing to map, when it has no CRLF). */
export function lfView(text: string): LfView {
  if (!text.includes("\r\n")) return { text, crlfAt: [] };
  const crlfAt: number[] = [];
  let dropped = 0;
  for (let at = text.indexOf("\r\n"); at !== -1; at = text.indexOf("\r\n", at + 2)) {
    crlfAt.push(at - dropped);
    dropped++;
  }
  return { text: text.replaceAll("\r\n", "\n"), crlfAt };
}

/**
 * The original offset of view offset `at`: a span starting at a view LF starts at its CR, and one ending
 * after a view LF ends after the original CRLF.
 */
export function fromView(view: LfView, at: number): number {
  const { crlfAt } = view;
  let low = 0;
  let high = crlfAt.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (crlfAt[mid] < at) low = mid + 1;
    else high = mid;
  }
  return at + low;
}

/** Where in a text the occurrences of a needle are, line endings set aside: original [start, end) spans. */
export type EndingFreeSearch = (needle: string, options: { overlapping: boolean }) => [number, number][];

/**
 * Finds needles in `text` as its LF view would, CRLF and LF alike. Only a file that mixes the two needs the
 * view (a 10 MB one costs about 60 ms to build, and searching it as much again); in a file with one kind
 * the needle is written in that kind and looked for in the text itself.
 */
export function endingFreeSearch(text: string): EndingFreeSearch {
  let view: LfView | undefined;
  const crlf = text.includes("\r\n");
  const mixed = crlf && hasLoneLf(text);
  return (needle, { overlapping }) => {
    const lf = toLf(needle);
    // A needle ending in CR would match the CR of a CRLF in the text; in the view that CR is gone.
    if (!mixed && !(crlf && lf.endsWith("\r"))) {
      const form = crlf ? lf.replaceAll("\n", "\r\n") : lf;
      return occurrences(text, form, overlapping).map((at) => [at, at + form.length]);
    }
    view ??= lfView(text);
    const within = view;
    return occurrences(within.text, lf, overlapping).map((at) => [
      fromView(within, at),
      fromView(within, at + lf.length),
    ]);
  };
}

/** Start indexes of `needle` in `text`, overlaps included or not. */
function occurrences(text: string, needle: string, overlapping: boolean): number[] {
  const found: number[] = [];
  const step = overlapping ? 1 : needle.length;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + step)) found.push(at);
  return found;
}

/** True when some LF in `text` has no CR before it (a walk over its LFs, cheaper than a regular expression). */
function hasLoneLf(text: string): boolean {
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
    if (at === 0 || text.charCodeAt(at - 1) !== 13) return true;
  }
  return false;
}

/** Text with CRLF made LF: how old_text is looked for in the view. */
export function toLf(text: string): string {
  return text.replaceAll("\r\n", "\n");
}

/** The line break that starts at `at`, or null (a CR followed by LF is one CRLF break). */
function breakAt(text: string, at: number): LineEnding | null {
  const code = text.charCodeAt(at);
  if (code === 10) return "\n";
  if (code !== 13) return null;
  return text.charCodeAt(at + 1) === 10 ? "\r\n" : "\r";
}

/** How many breaks of each kind `text` has between `start` and `end`. */
function countBreaks(text: string, start = 0, end = text.length): Record<LineEnding, number> {
  const counts = { "\r\n": 0, "\n": 0, "\r": 0 };
  for (let at = start; at < end; at++) {
    const kind = breakAt(text, at);
    if (kind === null) continue;
    counts[kind]++;
    if (kind === "\r\n") at++;
  }
  return counts;
}

/** The kind with the most breaks, or null when there are none; a tie goes to LF, then CRLF. */
function mostOf(counts: Record<LineEnding, number>): LineEnding | null {
  const order: LineEnding[] = ["\n", "\r\n", "\r"];
  const best = order.reduce((a, b) => counts[b] > counts[a] ? b : a);
  return counts[best] === 0 ? null : best;
}

/** Finds the ending a replacement takes; made once per text, as replace_all asks once per occurrence. */
export type EndingFinder = (start: number, end: number) => LineEnding;

/**
 * The ending a replacement of `text[start, end)` takes: the span's own when it has one kind only, else the
 * break ending the line the span starts on, else (the last line, unterminated) the file's most common; LF in
 * a file with no line break at all.
 */
export function endingFinder(text: string): EndingFinder {
  let common: LineEnding | undefined;
  const nextLf = nextOf(text, "\n");
  const nextCr = nextOf(text, "\r");
  return (start, end) => {
    const inside = countBreaks(text, start, end);
    const kinds = (Object.keys(inside) as LineEnding[]).filter((kind) => inside[kind] > 0);
    if (kinds.length === 1) return kinds[0];
    const next = Math.min(nextLf(start), nextCr(start));
    if (next < text.length) return breakAt(text, next)!;
    return common ??= mostOf(countBreaks(text)) ?? "\n";
  };
}

/** The first offset at or after `from` holding `char` (text.length when none); remembered, as calls ascend. */
function nextOf(text: string, char: string): (from: number) => number {
  let found = -1;
  let searchedFrom = Infinity;
  return (from) => {
    if (from < searchedFrom || (found !== text.length && found < from)) {
      const at = text.indexOf(char, from);
      found = at === -1 ? text.length : at;
      searchedFrom = from;
    }
    return found;
  };
}

/** `text` with its line breaks written as `ending` (a lone CR is kept, except in a CR file, as a break). */
export function withEnding(text: string, ending: LineEnding): string {
  const breaks = ending === "\r" ? /\r\n|\r|\n/g : /\r\n|\n/g;
  return text.replace(breaks, ending);
}

/** The name of an ending in messages. */
export function endingName(ending: LineEnding): string {
  return ending === "\r\n" ? "CRLF" : ending === "\n" ? "LF" : "CR";
}

/** The ending kinds a span's breaks use, named ("CRLF", "LF", "CRLF+LF"), or "" when it has no break. */
export function spanEndings(text: string, start: number, end: number): string {
  const counts = countBreaks(text, start, end);
  return (Object.keys(counts) as LineEnding[]).filter((kind) => counts[kind] > 0).map(endingName).join("+");
}

/** True when `text` has both CRLF and lone-LF line breaks (read_file shows them alike). */
export function mixesEndings(text: string): boolean {
  return text.includes("\r\n") && hasLoneLf(text);
}

/** How many CRs in `text` are not followed by LF: bare CR line breaks (old Mac files, progress logs). */
export function bareCrCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\r"); at !== -1; at = text.indexOf("\r", at + 1)) {
    if (text.charCodeAt(at + 1) !== 10) count++;
  }
  return count;
}
