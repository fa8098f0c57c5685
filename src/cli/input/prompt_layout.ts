/** Where a prompt and its text land on a terminal of a given width: rows, wraps and the cursor's cell. */
import { terminalSafe } from "../render/terminal_safe.ts";
import { visibleWidth } from "../render/_text_layout.ts";

/** Where the text and the cursor land on screen, in rows and columns from the prompt's first row. */
export interface Layout {
  lines: string[];
  rows: number;
  cursorRow: number;
  cursorCol: number;
  /** Each line's width in cells, prompt included. */
  widths: number[];
}

/** Lays out `prompt` + `text` over `columns`; continuation lines are indented to the prompt's width. */
export function layout(prompt: string, text: string, cursor: number, columns: number): Layout {
  const cols = Math.max(1, columns);
  const indent = " ".repeat(visibleWidth(prompt));
  const logical = text.split("\n");
  const lines = logical.map((line, i) => (i === 0 ? prompt : indent) + terminalSafe(line));
  const widths = lines.map((line) => visibleWidth(line));
  const before = text.slice(0, cursor).split("\n");
  const row = before.length - 1;
  let rows = 0;
  let cursorRow = 0;
  let cursorCol = 0;
  widths.forEach((width, i) => {
    if (i === row) {
      const at = visibleWidth((i === 0 ? prompt : indent) + terminalSafe(before[row]));
      cursorRow = rows + Math.floor(at / cols);
      cursorCol = at % cols;
    }
    rows += Math.floor(width / cols) + 1;
  });
  return { lines, rows, cursorRow, cursorCol, widths };
}
