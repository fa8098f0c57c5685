/**
 * The prompt on a terminal: our own small editor on raw mode (line_editor.ts holds the state), drawn in
 * place below the scrollback and never above it. Bracketed paste is on while it reads, so a pasted block
 * is one prompt; the terminal is back in cooked mode while a task runs (Ctrl-C is SIGINT there).
 */
import process from "node:process";
import { terminalSafe } from "../render/terminal_safe.ts";
import { commonPrefix } from "./completion.ts";
import { InputDecoder, type InputKey } from "./input_keys.ts";
import { type Completer, LineEditor } from "./line_editor.ts";
import type { LineReader, ReadHooks } from "./line_reader.ts";
import type { PromptHistory } from "./prompt_history.ts";
import { visibleWidth } from "../render/_text_layout.ts";

/** How long a lone ESC waits for the rest of a sequence. */
const ESC_WAIT_MS = 30;

/** Quiet time after the last resize signal before the prompt is drawn again. */
const RESIZE_SETTLE_MS = 100;

/** What the terminal reader needs; everything but the history has a default. */
export interface TerminalReaderOptions {
  history?: PromptHistory;
  complete?: Completer;
  input?: typeof process.stdin;
  write?: (text: string) => void;
  columns?: () => number;
}

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

/** A reader that edits prompts on the terminal. */
export function terminalReader(options: TerminalReaderOptions = {}): LineReader {
  const input = options.input ?? process.stdin;
  const encoder = new TextEncoder();
  const write = options.write ?? ((text: string) => {
    const bytes = encoder.encode(text);
    let written = 0;
    while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
  });
  const columns = options.columns ?? (() => {
    try {
      return Deno.consoleSize().columns;
    } catch {
      return 80;
    }
  });
  let lastInterrupt = 0;
  return {
    read: (text, hooks: ReadHooks = {}) =>
      new Promise((resolve) => {
        // What comes before the prompt's last line is printed once, above the editing area.
        let prompt = text.slice(text.lastIndexOf("\n") + 1);
        write(text.slice(0, text.length - prompt.length));
        const editor = new LineEditor(options.history?.entries() ?? []);
        const decoder = new InputDecoder();
        let shownRow = 0; // the cursor's row within the area, as last drawn
        let timer: ReturnType<typeof setTimeout> | undefined;
        let busy = Promise.resolve();

        const draw = (final = false) => {
          const searching = editor.search !== undefined;
          const shownPrompt = searching ? `(search: ${terminalSafe(editor.search!)}) › ` : prompt;
          // A match of several lines shows its first; Enter takes it whole.
          const match = editor.searchMatch() ?? "";
          const firstLine = match.split("\n")[0];
          const shownText = searching
            ? firstLine + (match.includes("\n") ? ` … (${match.split("\n").length} lines)` : "")
            : editor.text;
          const cursor = searching ? shownText.length : editor.cursor;
          const cols = columns();
          const view = layout(shownPrompt, shownText, final ? shownText.length : cursor, cols);
          let out = (shownRow > 0 ? `\x1b[${shownRow}A` : "") + "\r\x1b[J";
          view.lines.forEach((line, i) => {
            out += (i > 0 ? "\r\n" : "") + line;
            // A line that fills its last row exactly: step onto the next row, as the layout counts it.
            if (view.widths[i] > 0 && view.widths[i] % cols === 0) out += " \r\x1b[K";
          });
          const up = view.rows - 1 - view.cursorRow;
          if (final) out += "\r\n";
          else {out += (up > 0 ? `\x1b[${up}A` : "") + "\r" +
              (view.cursorCol > 0 ? `\x1b[${view.cursorCol}C` : "");}
          shownRow = final ? 0 : view.cursorRow;
          write(out);
        };

        /** Prints a note below the area, then draws the prompt afresh under it. */
        const note = (message: string) => {
          draw(true);
          write(message + "\r\n");
          draw();
        };

        const finish = (value: string | null) => {
          clearTimeout(timer);
          clearTimeout(resizeTimer);
          input.off("data", onData);
          Deno.removeSignalListener("SIGWINCH", onResize);
          write("\x1b[?2004l");
          input.setRawMode(false);
          input.pause();
          resolve(value);
        };

        const handle = async (key: InputKey) => {
          const outcome = editor.apply(key);
          switch (outcome.kind) {
            case "submit":
              draw(true);
              if (outcome.text.trim() !== "") options.history?.add(outcome.text);
              return finish(outcome.text);
            case "exit":
              draw(true);
              return finish(null);
            case "interrupt":
              if (hooks.interruptEnds || Date.now() - lastInterrupt < 2000) {
                draw(true);
                return finish(null);
              }
              lastInterrupt = Date.now();
              return note("(press Ctrl-C again to exit, or Ctrl-D)");
            case "cycle":
              if (hooks.cycle) prompt = hooks.cycle();
              return draw();
            case "complete":
              return await complete();
            case "none":
            case "clear-screen":
              return;
            default:
              return draw();
          }
        };

        const complete = async () => {
          const found = await options.complete?.(editor.text, editor.cursor);
          if (!found) return;
          const shared = commonPrefix(found.candidates);
          const typed = editor.text.slice(found.start, editor.cursor);
          if (shared.length > typed.length) editor.replaceBefore(found.start, shared);
          if (found.candidates.length > 1 && shared.length <= typed.length) {
            return note(found.candidates.map((c) => terminalSafe(c.trimEnd())).join("  "));
          }
          draw();
        };

        const onData = (chunk: Uint8Array | string) => {
          clearTimeout(timer);
          const keys = decoder.feed(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
          // Keys are handled in order, even when one (Tab) waits for the file system.
          for (const key of keys) busy = busy.then(() => handle(key));
          timer = setTimeout(() => {
            for (const key of decoder.flush()) busy = busy.then(() => handle(key));
          }, ESC_WAIT_MS);
        };

        // After a resize, where the terminal put the old drawing is its own business (some re-flow, some
        // cut): rather than guess, start a fresh area below it, once the resizing has settled.
        let resizeTimer: ReturnType<typeof setTimeout> | undefined;
        const onResize = () => {
          clearTimeout(resizeTimer);
          resizeTimer = setTimeout(() => {
            write("\x1b[J\r\n");
            shownRow = 0;
            draw();
          }, RESIZE_SETTLE_MS);
        };

        input.setRawMode(true);
        input.on("data", onData);
        input.resume();
        Deno.addSignalListener("SIGWINCH", onResize);
        write("\x1b[?2004h");
        draw();
      }),
    close: () => {},
  };
}
