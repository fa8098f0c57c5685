/**
 * How session files are sealed (state_seal.ts): every line under the label `session:<id>`, the id being
 * the file's own name, so a line cannot move from one session to another. Private to the session modules.
 */
import { openLine, type StateSeal } from "../state/seal.ts";

/** What a row whose seal fails is reported as. */
export const NOT_SEALED = "not sealed by tern in this directory";

/** What the lines of session `id` are sealed as. */
export function sessionLabel(id: string): string {
  return `session:${id}`;
}

/**
 * The rows with their seals checked and taken off; a row whose seal fails becomes unreadable. Only a last
 * row that is not JSON at all (a crash mid-append) stays as it is, to be said as torn; without a seal, the
 * rows are returned as they are (plain JSON lines).
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
    return i === rows.length - 1 && !isJson(row) ? row : { unreadable: NOT_SEALED };
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
