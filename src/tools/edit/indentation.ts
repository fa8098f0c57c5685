/**
 * edit_file's indentation-flexible layer: old_text's lines match whole lines of the file that differ from them
 * only by one common indentation offset (a block copied from a deeper or shallower level), and new_text is
 * moved by that same offset. Works on normalised texts (trailing whitespace already dropped), line by line.
 */

/** One offset between old_text and the file: the common indentation old_text has, and the file's. */
export interface IndentShift {
  from: string;
  to: string;
}

/** A block of whole lines the needle matches once indentation is set aside (0-based first line). */
export interface IndentMatch {
  first: number;
  count: number;
  shift: IndentShift;
}

/** The needle as the layer compares it: each line's indentation beyond the common one, and its content. */
interface Needle {
  common: string;
  rest: (string | null)[];
  bodies: string[];
}

function leadingOf(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** The needle's lines split into indentation and content; null when no line has content. */
function needleOf(lines: string[]): Needle | null {
  const filled = lines.filter((line) => line.trim() !== "");
  if (filled.length === 0) return null;
  const common = filled.map(leadingOf).reduce(commonPrefix);
  const rest = lines.map((line) => line.trim() === "" ? null : leadingOf(line).slice(common.length));
  return { common, rest, bodies: lines.map((line) => line.trimStart()) };
}

/** The file's common indentation for the block at `first` when it matches the needle line for line, else null. */
function blockIndent(fileLines: string[], first: number, needle: Needle): string | null {
  let indent: string | null = null;
  for (let i = 0; i < needle.rest.length; i++) {
    const line = fileLines[first + i];
    const rest = needle.rest[i];
    if (rest === null) {
      if (line.trim() !== "") return null;
      continue;
    }
    const leading = leadingOf(line);
    if (line.length - leading.length !== needle.bodies[i].length || !line.endsWith(needle.bodies[i])) {
      return null;
    }
    if (!leading.endsWith(rest)) return null;
    const own = leading.slice(0, leading.length - rest.length);
    if (indent !== null && own !== indent) return null;
    indent = own;
  }
  return indent;
}

/**
 * Every block of `fileLines` that `needleLines` match once their common indentation is set aside (the
 * indentation within the block must be the same). Lists every block, so one match can be told from several.
 */
export function findIndented(fileLines: string[], needleLines: string[]): IndentMatch[] {
  const needle = needleOf(needleLines);
  if (needle === null) return [];
  const count = needleLines.length;
  const firstBody = needle.bodies.findIndex((body) => body !== "");
  const found: IndentMatch[] = [];
  for (let first = 0; first + count <= fileLines.length; first++) {
    // The first line with content is the cheap test that turns nearly every position away.
    if (!fileLines[first + firstBody].endsWith(needle.bodies[firstBody])) continue;
    const to = blockIndent(fileLines, first, needle);
    if (to === null) continue;
    found.push({ first, count, shift: { from: needle.common, to } });
  }
  return found;
}

/**
 * `newText` moved by `shift`, or null when it cannot be: a line that starts with the old indentation gets the
 * file's instead; a line indented less than that gains what the file adds, or loses what it removes, as far
 * as it has indentation; when neither indentation is a prefix of the other (spaces against a tab), every
 * line must start with the old one. Blank lines stay as they are.
 */
export function reindent(newText: string, shift: IndentShift): string | null {
  const { from, to } = shift;
  const adds = to.startsWith(from);
  const removes = from.startsWith(to);
  const lines: string[] = [];
  for (const line of newText.split("\n")) {
    if (line.trim() === "") lines.push(line);
    else if (line.startsWith(from)) lines.push(to + line.slice(from.length));
    else if (adds) lines.push(to.slice(from.length) + line);
    else if (removes) lines.push(line.slice(Math.min(from.length - to.length, leadingOf(line).length)));
    else return null;
  }
  return lines.join("\n");
}

function whitespaceName(text: string): string {
  const count = text.length;
  if (/^ +$/.test(text)) return `${count} space${count === 1 ? "" : "s"}`;
  if (/^\t+$/.test(text)) return `${count} tab${count === 1 ? "" : "s"}`;
  return `${count} whitespace characters`;
}

/** The shift in words, for the result: "new_text re-indented: 4 spaces added to each line". */
export function describeShift(shift: IndentShift): string {
  const { from, to } = shift;
  if (from === to) return "indentation unchanged";
  if (to.startsWith(from)) {
    return `new_text re-indented: ${whitespaceName(to.slice(from.length))} added to each line`;
  }
  if (from.startsWith(to)) {
    return `new_text re-indented: ${whitespaceName(from.slice(to.length))} removed from each line`;
  }
  return `new_text re-indented: ${whitespaceName(from)} at the start of each line made ${whitespaceName(to)}`;
}
