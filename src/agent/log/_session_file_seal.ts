/**
 * How session files are sealed (state_seal.ts): every line under the label `session:<id>`, the id being
 * the file's own name, so a line cannot move from one session to another. Private to the session modules.
 */
import { openLine, type StateSeal } from "../state/seal.ts";

/** What a row whose seal fails is reported as. */
export const NOT_SEALED = "not sealed by tern in this directory";

/**
 * What a row that is not JSON at all, before the last, is reported as: a line a tern killed mid-append left,
 * which the next write to the file ended (session_writer.ts) so that its own line stays whole.
 */
export const TORN = "cut off mid-write (a tern stopped while writing it)";

/** What the lines of session `id` are sealed as. */
export function sessionLabel(id: string): string {
  return `session:${id}`;
}

/**
 * The rows with their seals checked and taken off; a row whose seal fails becomes unreadable. A row that is
 * not JSON at all is torn (a crash mid-append): the last stays as it is, to be said as torn, an earlier one
 * is said as TORN; without a seal, the rows are returned as they are (plain JSON lines).
 */
export function unsealedRows(
  rows: (string | { unreadable: string })[],
  seal: StateSeal | undefined,
  label: string,
): (string | { unreadable: string })[] {
  if (seal === undefined) return rows;
  return rows.map((row, i) => {
    if (typeof row !== "string") return row;
    const body = openLine(seal, label, row);
    if (body !== undefined) return body;
    if (isJson(row)) return { unreadable: NOT_SEALED };
    return i === rows.length - 1 ? row : { unreadable: TORN };
  });
}

function isJson(row: string): boolean {
  try {
    JSON.parse(row);
    return true;
  } catch {
    return false;
  }
}
