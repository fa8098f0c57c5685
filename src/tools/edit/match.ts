/**
 * The edit matcher behind edit_file, in layers tried in order, each only when the one before finds nothing:
 * exact (LF text also matches CRLF files), per-line normalised, then both again without read_file's
 * line-number prefixes. Uniqueness always counts overlapping occurrences.
 */

import { characterAt, type NormalisedText, normaliseText, toOriginal } from "./normalise.ts";
import { lineCount, type LineDelta, lineDelta } from "./line_delta.ts";

/** Which layer found the match. */
export type MatchLayer = "exact" | "normalised" | "numbers" | "numbers+normalised";

/** What applying an edit to a text came to. */
export type EditOutcome =
  | { kind: "not_found" }
  | { kind: "ambiguous"; lines: number[]; layer: MatchLayer }
  | { kind: "splits_character"; line: number; character: string; layer: MatchLayer }
  | { kind: "edited"; text: string; count: number; added: number; removed: number; layer: MatchLayer };

/** Lines beyond which the diff summary counts lines instead of diffing. */
const DIFF_LINE_LIMIT = 4000;

/** Start indexes of every occurrence of `needle`, overlaps included ("aa" is found twice in "aaa"). */
export function findAll(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** The 1-based line numbers of ascending character indexes, in one pass over the text. */
export function lineNumbers(text: string, indexes: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let newline = text.indexOf("\n");
  for (const index of indexes) {
    while (newline !== -1 && newline < index) {
      line++;
      newline = text.indexOf("\n", newline + 1);
    }
    lines.push(line);
  }
  return lines;
}

/**
 * The diff summary of a whole text before and after several edits (summing the edits' own would count a
 * line edited twice twice): the common head and tail are skipped, the changed middle is diffed. When the
 * middle is too large to diff (edits far apart in a big file), `fallback` is returned.
 */
export function diffSummary(before: string, after: string, fallback: LineDelta): LineDelta {
  const shorter = Math.min(before.length, after.length);
  let head = 0;
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  head = before.lastIndexOf("\n", head - 1) + 1;
  let tail = 0;
  while (
    tail < shorter - head &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) {
    tail++;
  }
  // The tail must start a line in both texts; what precedes it is common to both, so one check serves.
  while (tail > 0 && before[before.length - tail - 1] !== "\n") tail--;
  const from = before.slice(head, before.length - tail);
  const to = after.slice(head, after.length - tail);
  if (lineCount(from) + lineCount(to) > DIFF_LINE_LIMIT) return fallback;
  return lineDelta(from, to);
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

function hasLoneLf(text: string): boolean {
  return /(^|[^\r])\n/.test(text);
}

/**
 * Picks the form of old/new text to use in `text`: as given, or, in a file with CRLF endings, the same
 * text with CRLF endings (models send LF). The replacement follows the file's endings where it lands.
 */
function chooseForms(text: string, oldText: string, newText: string): [string, string, number[]] {
  const crlfFile = text.includes("\r\n");
  const asGiven = findAll(text, oldText);
  if (asGiven.length > 0 || !crlfFile || !hasLoneLf(oldText)) {
    const keepLf = !crlfFile || hasLoneLf(oldText);
    return [oldText, keepLf ? newText : toCrlf(newText), asGiven];
  }
  const crlfOld = toCrlf(oldText);
  return [crlfOld, toCrlf(newText), findAll(text, crlfOld)];
}

function replaceSpan(text: string, start: number, end: number, to: string, layer: MatchLayer): EditOutcome {
  const { added, removed } = lineDelta(text.slice(start, end), to);
  return {
    kind: "edited",
    text: text.slice(0, start) + to + text.slice(end),
    count: 1,
    added,
    removed,
    layer,
  };
}

function exact(text: string, oldText: string, newText: string, layer: MatchLayer): EditOutcome | null {
  const [from, to, found] = chooseForms(text, oldText, newText);
  if (found.length === 0) return null;
  if (found.length > 1) return { kind: "ambiguous", lines: lineNumbers(text, found), layer };
  return replaceSpan(text, found[0], found[0] + from.length, to, layer);
}

/**
 * Finds `oldText` in the normalised text and replaces the original span it maps back to. A needle whose
 * last line had trailing whitespace must end where a line ends, or "foo " would match inside "foobar".
 */
function normalised(
  text: string,
  norm: NormalisedText,
  edit: { oldText: string; newText: string },
  layer: MatchLayer,
): EditOutcome | null {
  const needle = normaliseText(edit.oldText).text;
  if (needle.trim() === "") return null;
  const endsLine = /\s$/.test(edit.oldText.slice(edit.oldText.lastIndexOf("\n") + 1));
  let found = findAll(norm.text, needle);
  if (endsLine) {
    found = found.filter((at) =>
      at + needle.length === norm.text.length || norm.text[at + needle.length] === "\n"
    );
  }
  if (found.length === 0) return null;
  if (found.length > 1) return { kind: "ambiguous", lines: lineNumbers(norm.text, found), layer };
  const start = toOriginal(norm, found[0]);
  const end = toOriginal(norm, found[0] + needle.length, endsLine);
  if (start < 0 || end < 0) {
    const cut = start < 0 ? found[0] : found[0] + needle.length;
    const { start: from, end: to } = characterAt(norm, cut);
    const [line] = lineNumbers(norm.text, [cut]);
    return { kind: "splits_character", line, character: text.slice(from, to).trimEnd(), layer };
  }
  const span = text.slice(start, end);
  const crlf = span.includes("\r\n") || (!span.includes("\n") && text.includes("\r\n"));
  return replaceSpan(text, start, end, crlf ? toCrlf(edit.newText) : edit.newText, layer);
}

/** Length of a read_file line-number prefix ("    12\t": the number right-aligned in six, then a tab), or 0. */
function prefixLength(line: string): number {
  const match = /^( *)(\d+)\t/.exec(line);
  if (match === null) return 0;
  const [whole, pad, digits] = match;
  return pad.length + digits.length === Math.max(6, digits.length) ? whole.length : 0;
}

/** old/new text without read_file line-number prefixes, when every non-empty line of old_text has one. */
export function stripLineNumbers(oldText: string, newText: string): [string, string] | null {
  const lines = oldText.split("\n").filter((line) => line !== "" && line !== "\r");
  if (lines.length === 0 || !lines.every((line) => prefixLength(line) > 0)) return null;
  const strip = (text: string) => text.split("\n").map((line) => line.slice(prefixLength(line))).join("\n");
  return [strip(oldText), strip(newText)];
}

function replaceEvery(text: string, oldText: string, newText: string): EditOutcome {
  const [from, to, found] = chooseForms(text, oldText, newText);
  if (found.length === 0) return { kind: "not_found" };
  const pieces = text.split(from);
  const count = pieces.length - 1;
  const { added, removed } = lineDelta(from, to);
  return {
    kind: "edited",
    text: pieces.join(to),
    count,
    added: added * count,
    removed: removed * count,
    layer: "exact",
  };
}

/**
 * Applies one edit: `oldText` must occur exactly once (layers as in the module comment) unless
 * `replaceAll`, which replaces each non-overlapping exact occurrence and never normalises.
 */
export function applyEdit(text: string, oldText: string, newText: string, replaceAll: boolean): EditOutcome {
  if (replaceAll) return replaceEvery(text, oldText, newText);
  let norm: NormalisedText | undefined;
  const normalisedText = () => norm ??= normaliseText(text);
  const first = exact(text, oldText, newText, "exact") ??
    normalised(text, normalisedText(), { oldText, newText }, "normalised");
  if (first !== null) return first;
  const stripped = stripLineNumbers(oldText, newText);
  if (stripped === null || stripped[0].trim() === "") return { kind: "not_found" };
  const [bareOld, bareNew] = stripped;
  return exact(text, bareOld, bareNew, "numbers") ??
    normalised(text, normalisedText(), { oldText: bareOld, newText: bareNew }, "numbers+normalised") ??
    { kind: "not_found" };
}

/** How a non-exact match was found, for the success message; "" for an exact match. */
export function describeLayer(layer: MatchLayer): string {
  switch (layer) {
    case "exact":
      return "";
    case "normalised":
      return "matched after normalising whitespace/quotes/dashes";
    case "numbers":
      return "matched after removing read_file line-number prefixes";
    case "numbers+normalised":
      return "matched after removing read_file line-number prefixes and normalising whitespace/quotes/dashes";
  }
}
