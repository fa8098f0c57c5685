/**
 * How many lines a change adds and removes, counted as a minimal line diff counts them (every line of either
 * side not in their longest common subsequence). The edit tools report it ("+2 −1 lines") on every call, so
 * it is counted here rather than with the diff package, whose first load costs 7 ms and 3.5 MB (issue 18);
 * the package draws the diff views a person looks at.
 */

/** A diff summary: lines added and removed. */
export interface LineDelta {
  added: number;
  removed: number;
}

/** Changed lines beyond which both sides are counted whole: the table below grows with their product. */
const LINE_LIMIT = 4000;

/** Lines a snippet spans: "" is none, "a" and "a\n" are one, "a\nb" is two. */
export function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** The lines of `text`, each with its "\n" (the last may have none): "a" and "a\n" differ, as in a diff. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  const last = lines.pop()!;
  const out = lines.map((line) => `${line}\n`);
  if (last !== "") out.push(last);
  return out;
}

/**
 * The length of the longest common subsequence of `a` and `b`: their common ends, then two rows of the usual
 * table for what lies between; when that is over LINE_LIMIT lines, the ends alone (it is all counted changed).
 */
function commonLength(a: string[], b: string[]): number {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const from = a.slice(head, a.length - tail);
  const to = b.slice(head, b.length - tail);
  if (from.length + to.length > LINE_LIMIT) return head + tail;
  let above = new Uint32Array(to.length + 1);
  let row = new Uint32Array(to.length + 1);
  for (const line of from) {
    for (let j = 1; j <= to.length; j++) {
      row[j] = line === to[j - 1] ? above[j - 1] + 1 : Math.max(above[j], row[j - 1]);
    }
    [above, row] = [row, above];
  }
  return head + tail + above[to.length];
}

/** Lines added and removed by replacing `from` with `to` (CRLF counted as LF). */
export function lineDelta(from: string, to: string): LineDelta {
  const before = from.replaceAll("\r\n", "\n");
  const after = to.replaceAll("\r\n", "\n");
  const [old, now] = [linesOf(before), linesOf(after)];
  const common = commonLength(old, now);
  return { added: now.length - common, removed: old.length - common };
}

/** Lines beyond which the diff summary counts lines instead of diffing. */
const DIFF_LINE_LIMIT = 4000;

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
