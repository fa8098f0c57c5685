/**
 * The edit matcher behind edit_file, in layers tried in order, each only when the one before finds nothing:
 * exact (line endings set aside: read_file shows CRLF and LF alike), per-line normalised, indentation set
 * aside, then all three again without read_file's line-number prefixes. Uniqueness always counts overlapping
 * occurrences; the replacement takes the line ending of the place it lands.
 */

import { characterAt, type NormalisedText, normaliseText, toOriginal } from "./normalise.ts";
import { lineDelta } from "./line_delta.ts";
import {
  type EndingFinder,
  endingFinder,
  type EndingFreeSearch,
  endingFreeSearch,
  type LineEnding,
  toLf,
  withEnding,
} from "./line_endings.ts";
import { describeShift, findIndented, type IndentShift, reindent } from "./indentation.ts";
import { type Place, placesOf } from "./places.ts";

/** Which layer found the match. */
export type MatchLayer =
  | "exact"
  | "normalised"
  | "indentation"
  | "numbers"
  | "numbers+normalised"
  | "numbers+indentation";

/** What applying an edit to a text came to; `shift` is set when new_text was re-indented. */
export type EditOutcome =
  | { kind: "not_found" }
  | { kind: "ambiguous"; places: Place[]; layer: MatchLayer }
  | { kind: "splits_character"; line: number; character: string; layer: MatchLayer }
  | {
    kind: "edited";
    text: string;
    count: number;
    added: number;
    removed: number;
    layer: MatchLayer;
    shift?: IndentShift;
  };

type Edited = Extract<EditOutcome, { kind: "edited" }>;

/** One edit's two texts. */
interface Edit {
  oldText: string;
  newText: string;
}

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

/** A text being edited, with what the layers derive from it, each made once and only when asked for. */
class Subject {
  #search?: EndingFreeSearch;
  #norm?: NormalisedText;
  #normLines?: string[];
  #ending?: EndingFinder;
  constructor(readonly text: string) {}
  /** Spans of `needle` in the text, CRLF and LF alike. */
  find(needle: string, overlapping: boolean): [number, number][] {
    return (this.#search ??= endingFreeSearch(this.text))(needle, { overlapping });
  }
  get norm(): NormalisedText {
    return this.#norm ??= normaliseText(this.text);
  }
  get normLines(): string[] {
    return this.#normLines ??= this.norm.text.split("\n");
  }
  ending(start: number, end: number): LineEnding {
    return (this.#ending ??= endingFinder(this.text))(start, end);
  }
}

/** The edit of `text[start, end)`, `to` written with the line ending of the place it lands. */
function replaceSpan(subject: Subject, span: [number, number], to: string, layer: MatchLayer): Edited {
  const { text } = subject;
  const [start, end] = span;
  const written = withEnding(to, subject.ending(start, end));
  const { added, removed } = lineDelta(text.slice(start, end), written);
  return {
    kind: "edited",
    text: text.slice(0, start) + written + text.slice(end),
    count: 1,
    added,
    removed,
    layer,
  };
}

/** Exact matching, line endings set aside: a CRLF copy and an LF copy of the same lines are the same text. */
function exact(subject: Subject, edit: Edit, layer: MatchLayer): EditOutcome | null {
  const spans = subject.find(edit.oldText, true);
  if (spans.length === 0) return null;
  if (spans.length > 1) return { kind: "ambiguous", places: placesOf(subject.text, spans), layer };
  return replaceSpan(subject, spans[0], edit.newText, layer);
}

/**
 * Finds `oldText` in the normalised text and replaces the original span it maps back to. A needle whose
 * last line had trailing whitespace must end where a line ends, or "foo " would match inside "foobar".
 */
function normalised(subject: Subject, edit: Edit, layer: MatchLayer): EditOutcome | null {
  const { text, norm } = subject;
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
  if (found.length > 1) {
    const spans = found.map((at): [number, number] => [
      originalNear(norm, at, false),
      originalNear(norm, at + needle.length, endsLine),
    ]);
    return { kind: "ambiguous", places: placesOf(text, spans), layer };
  }
  const start = toOriginal(norm, found[0]);
  const end = toOriginal(norm, found[0] + needle.length, endsLine);
  if (start < 0 || end < 0) {
    const cut = start < 0 ? found[0] : found[0] + needle.length;
    const { start: from, end: to } = characterAt(norm, cut);
    const [line] = lineNumbers(norm.text, [cut]);
    return { kind: "splits_character", line, character: text.slice(from, to).trimEnd(), layer };
  }
  return replaceSpan(subject, [start, end], edit.newText, layer);
}

/** The original offset of a normalised one, or the start of the character it falls inside (for places). */
function originalNear(norm: NormalisedText, at: number, preferEnd: boolean): number {
  const original = toOriginal(norm, at, preferEnd);
  return original >= 0 ? original : characterAt(norm, at).start;
}

/**
 * Whole lines that match old_text once indentation is set aside (see indentation.ts), tried only after the
 * layers above found nothing, and applied only when exactly one block matches; new_text moves by the offset.
 */
function indented(subject: Subject, edit: Edit, layer: MatchLayer): EditOutcome | null {
  const { norm, normLines } = subject;
  const needle = normaliseText(edit.oldText).text.split("\n");
  const endsWithBreak = needle.length > 1 && needle.at(-1) === "";
  if (endsWithBreak) needle.pop();
  // A block that old_text ends with a line break must have one after it in the file too.
  const blocks = findIndented(normLines, needle).filter((block) =>
    !endsWithBreak || block.first + block.count < normLines.length
  );
  if (blocks.length === 0) return null;
  const spans = blocks.map((block): [number, number] => {
    const start = norm.lines[block.first].origStart;
    const last = block.first + block.count - 1;
    return [start, endsWithBreak ? norm.lines[last + 1].origStart : norm.lines[last].origEnd];
  });
  if (blocks.length > 1) return { kind: "ambiguous", places: placesOf(subject.text, spans), layer };
  const { shift } = blocks[0];
  // Spaces against a tab, with a line of new_text less indented than old_text: no offset says where it goes.
  const moved = reindent(toLf(edit.newText), shift);
  if (moved === null) return null;
  return { ...replaceSpan(subject, spans[0], moved, layer), shift };
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

/** Every non-overlapping exact occurrence (line endings set aside), each with its own place's ending. */
function replaceEvery(text: string, oldText: string, newText: string): EditOutcome {
  const subject = new Subject(text);
  const spans = subject.find(oldText, false);
  if (spans.length === 0) return { kind: "not_found" };
  const pieces: string[] = [];
  let done = 0;
  for (const [start, end] of spans) {
    pieces.push(text.slice(done, start), withEnding(newText, subject.ending(start, end)));
    done = end;
  }
  pieces.push(text.slice(done));
  const count = spans.length;
  const { added, removed } = lineDelta(toLf(oldText), toLf(newText));
  return {
    kind: "edited",
    text: pieces.join(""),
    count,
    added: added * count,
    removed: removed * count,
    layer: "exact",
  };
}

/** The matching layers in order, each tried only when the ones before found nothing. */
const LAYERS = [exact, normalised, indented];

/**
 * Applies one edit: `oldText` must occur exactly once (layers as in the module comment) unless
 * `replaceAll`, which replaces each non-overlapping exact occurrence and never normalises.
 */
export function applyEdit(text: string, oldText: string, newText: string, replaceAll: boolean): EditOutcome {
  if (replaceAll) return replaceEvery(text, oldText, newText);
  const subject = new Subject(text);
  const names: MatchLayer[] = ["exact", "normalised", "indentation"];
  for (const [i, layer] of LAYERS.entries()) {
    const outcome = layer(subject, { oldText, newText }, names[i]);
    if (outcome !== null) return outcome;
  }
  const stripped = stripLineNumbers(oldText, newText);
  if (stripped === null || stripped[0].trim() === "") return { kind: "not_found" };
  const [bareOld, bareNew] = stripped;
  const numbered: MatchLayer[] = ["numbers", "numbers+normalised", "numbers+indentation"];
  for (const [i, layer] of LAYERS.entries()) {
    const outcome = layer(subject, { oldText: bareOld, newText: bareNew }, numbered[i]);
    if (outcome !== null) return outcome;
  }
  return { kind: "not_found" };
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
    case "indentation":
      return "matched once indentation was set aside";
    case "numbers+indentation":
      return "matched after removing read_file line-number prefixes, once indentation was set aside";
  }
}

/** How an edit was matched, with the re-indentation it made, for the result; "" for an exact match. */
export function describeMatch(outcome: { layer: MatchLayer; shift?: IndentShift }): string {
  const how = describeLayer(outcome.layer);
  return outcome.shift === undefined ? how : `${how} (${describeShift(outcome.shift)})`;
}
