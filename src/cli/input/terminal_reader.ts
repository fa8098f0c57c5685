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
import { layout } from "./prompt_layout.ts";
import type { LineReader, ReadHooks } from "./reader_contract.ts";
import type { PromptHistory } from "./prompt_history.ts";

/** How long a lone ESC waits for the rest of a sequence. */
const ESC_WAIT_MS = 30;

/**
 * Input that arrives this soon after a read starts was typed ahead, while a task or command ran: the terminal
 * was in cooked mode then and turned each Enter into "\n", which the editor would take for Ctrl-J.
 */
const TYPE_AHEAD_MS = 30;

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

/** A reader that edits prompts on the terminal. */
export function terminalReader(options: TerminalReaderOptions = {}): LineReader {
  const encoder = new TextEncoder();
  const io: ReaderIo = {
    input: options.input ?? process.stdin,
    write: options.write ?? ((text: string) => {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
    }),
    columns: options.columns ?? (() => {
      try {
        return Deno.consoleSize().columns;
      } catch {
        return 80;
      }
    }),
    history: options.history,
    complete: options.complete,
    lastInterrupt: 0,
    text: new TextDecoder(),
    keys: new InputDecoder(),
    pending: [],
  };
  return {
    read: (text, hooks: ReadHooks = {}) =>
      new Promise((resolve) => new PromptRead(io, text, hooks, resolve).start()),
    close: () => {},
  };
}

/** What every read of one reader shares: the terminal, the history, and when Ctrl-C was last pressed. */
interface ReaderIo {
  input: typeof process.stdin;
  write: (text: string) => void;
  columns: () => number;
  history?: PromptHistory;
  complete?: Completer;
  lastInterrupt: number;
  /**
   * The input's decoders, one for the reader's life: a character, an escape sequence or a bracketed paste
   * split between reads, or between two reads of the terminal, is still one.
   */
  text: TextDecoder;
  keys: InputDecoder;
  /** Keys past the Enter that submitted a read (typed ahead), in order, for the next reads. */
  pending: InputKey[];
}

/** One prompt being edited: raw mode and bracketed paste on, keys applied in order, the area redrawn. */
class PromptRead {
  readonly #io: ReaderIo;
  readonly #hooks: ReadHooks;
  readonly #resolve: (value: string | null) => void;
  readonly #editor: LineEditor;
  #prompt: string;
  /** The cursor's row within the area, as last drawn. */
  #shownRow = 0;
  #escTimer?: ReturnType<typeof setTimeout>;
  #resizeTimer?: ReturnType<typeof setTimeout>;
  /** Keys decoded and not yet handled, in order. */
  #keys: InputKey[] = [];
  #pumping = false;
  #startedAt = 0;
  #firstChunk = true;
  #done = false;

  constructor(io: ReaderIo, text: string, hooks: ReadHooks, resolve: (value: string | null) => void) {
    this.#io = io;
    this.#hooks = hooks;
    this.#resolve = resolve;
    this.#editor = new LineEditor(io.history?.entries() ?? []);
    // What comes before the prompt's last line is printed once, above the editing area.
    this.#prompt = text.slice(text.lastIndexOf("\n") + 1);
    io.write(text.slice(0, text.length - this.#prompt.length));
  }

  start(): void {
    this.#io.input.setRawMode(true);
    this.#io.input.on("data", this.#onData);
    this.#io.input.resume();
    Deno.addSignalListener("SIGWINCH", this.#onResize);
    this.#io.write("\x1b[?2004h");
    this.#startedAt = performance.now();
    this.#draw();
    const pending = this.#io.pending;
    this.#io.pending = [];
    this.#queue(pending);
    this.#waitForEscape();
  }

  #draw(final = false): void {
    const editor = this.#editor;
    const searching = editor.search !== undefined;
    const shownPrompt = searching ? `(search: ${terminalSafe(editor.search!)}) › ` : this.#prompt;
    // A match of several lines shows its first; Enter takes it whole.
    const match = editor.searchMatch() ?? "";
    const shownText = searching
      ? match.split("\n")[0] + (match.includes("\n") ? ` … (${match.split("\n").length} lines)` : "")
      : editor.text;
    const cursor = final || searching ? shownText.length : editor.cursor;
    const cols = this.#io.columns();
    const view = layout(shownPrompt, shownText, cursor, cols);
    let out = (this.#shownRow > 0 ? `\x1b[${this.#shownRow}A` : "") + "\r\x1b[J";
    view.lines.forEach((line, i) => {
      out += (i > 0 ? "\r\n" : "") + line;
      // A line that fills its last row exactly: step onto the next row, as the layout counts it.
      if (view.widths[i] > 0 && view.widths[i] % cols === 0) out += " \r\x1b[K";
    });
    const up = view.rows - 1 - view.cursorRow;
    if (final) out += "\r\n";
    else out += (up > 0 ? `\x1b[${up}A` : "") + "\r" + (view.cursorCol > 0 ? `\x1b[${view.cursorCol}C` : "");
    this.#shownRow = final ? 0 : view.cursorRow;
    this.#io.write(out);
  }

  /** Prints a note below the area, then draws the prompt afresh under it. */
  #note(message: string): void {
    this.#draw(true);
    this.#io.write(message + "\r\n");
    this.#draw();
  }

  #finish(value: string | null): void {
    if (this.#done) return;
    this.#done = true;
    // The keys after the Enter that ended this read were typed ahead: they are the next read's.
    this.#io.pending = [...this.#keys, ...this.#io.pending];
    this.#keys = [];
    clearTimeout(this.#escTimer);
    clearTimeout(this.#resizeTimer);
    this.#io.input.off("data", this.#onData);
    Deno.removeSignalListener("SIGWINCH", this.#onResize);
    this.#io.write("\x1b[?2004l");
    this.#io.input.setRawMode(false);
    this.#io.input.pause();
    this.#resolve(value);
  }

  async #handle(key: InputKey): Promise<void> {
    if (this.#done) return;
    const outcome = this.#editor.apply(key);
    switch (outcome.kind) {
      case "submit":
        this.#draw(true);
        if (outcome.text.trim() !== "") this.#io.history?.add(outcome.text);
        return this.#finish(outcome.text);
      case "exit":
        this.#draw(true);
        return this.#finish(null);
      case "interrupt":
        return this.#interrupt();
      case "cycle":
        if (this.#hooks.cycle) this.#prompt = this.#hooks.cycle();
        return this.#draw();
      case "complete":
        return await this.#complete();
      case "clear-screen":
        // As in a shell: the screen cleared (the scrollback kept), the prompt and its text drawn at the top.
        this.#io.write("\x1b[H\x1b[2J");
        this.#shownRow = 0;
        return this.#draw();
      case "none":
        return;
      default:
        return this.#draw();
    }
  }

  /** Ctrl-C: ends the read when the caller says so or when pressed twice within 2 s; else says how to exit. */
  #interrupt(): void {
    if (this.#hooks.interruptEnds || Date.now() - this.#io.lastInterrupt < 2000) {
      this.#draw(true);
      return this.#finish(null);
    }
    this.#io.lastInterrupt = Date.now();
    this.#note("(press Ctrl-C again to exit, or Ctrl-D)");
  }

  async #complete(): Promise<void> {
    const editor = this.#editor;
    const found = await this.#io.complete?.(editor.text, editor.cursor);
    if (!found) return;
    const shared = commonPrefix(found.candidates);
    const typed = editor.text.slice(found.start, editor.cursor);
    if (shared.length > typed.length) editor.replaceBefore(found.start, shared);
    if (found.candidates.length > 1 && shared.length <= typed.length) {
      return this.#note(found.candidates.map((c) => terminalSafe(c.trimEnd())).join("  "));
    }
    this.#draw();
  }

  readonly #onData = (chunk: Uint8Array | string): void => {
    clearTimeout(this.#escTimer);
    let text = typeof chunk === "string" ? chunk : this.#io.text.decode(chunk, { stream: true });
    // Typed ahead while a command ran, in cooked mode: each Enter came as "\n", which is Ctrl-J here.
    if (this.#firstChunk && performance.now() - this.#startedAt < TYPE_AHEAD_MS) {
      text = text.replace(/\r?\n/g, "\r");
    }
    this.#firstChunk = false;
    // A paste is one key however many reads of the terminal it takes, so no line of it is ever an Enter.
    this.#queue(this.#io.keys.feed(text));
    this.#waitForEscape();
  };

  /** Keys are handled in order, even when one (Tab) waits for the file system. */
  #queue(keys: InputKey[]): void {
    this.#keys.push(...keys);
    if (!this.#pumping) void this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (!this.#done && this.#keys.length > 0) await this.#handle(this.#keys.shift()!);
    } finally {
      this.#pumping = false;
    }
  }

  /** A lone ESC is the Esc key once nothing follows it for a moment. */
  #waitForEscape(): void {
    this.#escTimer = setTimeout(() => this.#queue(this.#io.keys.flush()), ESC_WAIT_MS);
  }

  /**
   * After a resize, where the terminal put the old drawing is its own business (some re-flow, some cut):
   * rather than guess, start a fresh area below it, once the resizing has settled.
   */
  readonly #onResize = (): void => {
    clearTimeout(this.#resizeTimer);
    this.#resizeTimer = setTimeout(() => {
      this.#io.write("\x1b[J\r\n");
      this.#shownRow = 0;
      this.#draw();
    }, RESIZE_SETTLE_MS);
  };
}
