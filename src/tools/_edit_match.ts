/** The edit matcher behind edit_file: exact matching, counted with overlaps, tolerant of CRLF files. */

/** What applying an edit to a text came to. */
export type EditOutcome =
  | { kind: "not_found" }
  | { kind: "ambiguous"; lines: number[] }
  | { kind: "edited"; text: string; count: number; added: number; removed: number };

/** Start indexes of every occurrence of `needle`, overlaps included ("aa" is found twice in "aaa"). */
export function findAll(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** The 1-based line number of the character at `index`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

/** Lines a snippet spans: "" is none, "a" and "a\n" are one, "a\nb" is two. */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
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

/** Applies one edit: `oldText` must occur exactly once unless `replaceAll`, which replaces each occurrence. */
export function applyEdit(text: string, oldText: string, newText: string, replaceAll: boolean): EditOutcome {
  const [from, to, found] = chooseForms(text, oldText, newText);
  if (found.length === 0) return { kind: "not_found" };
  if (found.length > 1 && !replaceAll) {
    return {
      kind: "ambiguous",
      lines: found.map((at) => lineAt(text, at)),
    };
  }
  const pieces = text.split(from);
  const count = pieces.length - 1;
  const normalise = (s: string) => s.replaceAll("\r\n", "\n");
  return {
    kind: "edited",
    text: pieces.join(to),
    count,
    added: lineCount(normalise(to)) * count,
    removed: lineCount(normalise(from)) * count,
  };
}
