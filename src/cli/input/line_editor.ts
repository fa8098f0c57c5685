/**
 * The prompt's editing model, apart from the terminal: text with a cursor, keys applied one at a time,
 * multi-line (Alt+Enter, Ctrl-J, a trailing `\`), pastes kept whole behind a `[pasted N lines]` marker,
 * history browsing and Ctrl-R search. Pure: the terminal reader (input_editor.ts) draws what it holds.
 */
import type { InputKey } from "./input_keys.ts";

/** What the completer offers for the text before the cursor: candidates replacing [start, cursor). */
export interface Completion {
  start: number;
  candidates: string[];
}

/** Offers completions (slash commands, @paths); may be slow, so it is awaited by the reader, not here. */
export type Completer = (text: string, cursor: number) => Promise<Completion | undefined>;

/** What a key did. */
export type EditOutcome =
  | { kind: "edit" }
  | { kind: "submit"; text: string }
  | { kind: "exit" }
  | { kind: "interrupt" }
  | { kind: "complete" }
  | { kind: "cycle" }
  | { kind: "clear-screen" }
  | { kind: "none" };

/** A recalled history entry with more lines than this is shown behind a marker. */
const MAX_SHOWN_LINES = 10;

/** A paste at least this long (or of several lines) is kept behind a marker. */
const PASTE_MARKER_CHARS = 200;

/** The editing state of one prompt. */
export class LineEditor {
  text = "";
  cursor = 0;
  /** Ctrl-R search: the query typed so far, or undefined when not searching. */
  search: string | undefined;
  #pastes = new Map<string, string>();
  #history: string[];
  /** Index into history while browsing (history.length = the draft). */
  #browse: number;
  #draft = "";

  /** `history` oldest first. */
  constructor(history: string[] = []) {
    this.#history = history;
    this.#browse = history.length;
  }

  /** The text with each paste marker replaced by what was pasted. */
  expanded(): string {
    let text = this.text;
    for (const [marker, pasted] of this.#pastes) text = text.replaceAll(marker, pasted);
    return text;
  }

  /** The history entry Ctrl-R's query finds (newest first), if any. */
  searchMatch(): string | undefined {
    if (this.search === undefined || this.search === "") return undefined;
    for (let i = this.#history.length - 1; i >= 0; i--) {
      if (this.#history[i].includes(this.search)) return this.#history[i];
    }
    return undefined;
  }

  /** Inserts text at the cursor. */
  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** Replaces [start, cursor) with `text` (a completion). */
  replaceBefore(start: number, text: string): void {
    this.text = this.text.slice(0, start) + text + this.text.slice(this.cursor);
    this.cursor = start + text.length;
  }

  /** Applies one key. */
  apply(key: InputKey): EditOutcome {
    if (this.search !== undefined) return this.#applySearch(key);
    switch (key.kind) {
      case "text":
        this.insert(key.text);
        return { kind: "edit" };
      case "paste":
        this.#paste(key.text);
        return { kind: "edit" };
      case "newline":
        this.insert("\n");
        return { kind: "edit" };
      case "enter":
        if (this.text.slice(0, this.cursor).endsWith("\\") && this.cursor === this.text.length) {
          this.replaceBefore(this.cursor - 1, "\n"); // a trailing backslash continues the prompt
          return { kind: "edit" };
        }
        return { kind: "submit", text: this.expanded() };
      case "ctrl-c":
        if (this.text === "") return { kind: "interrupt" };
        this.#reset("");
        return { kind: "edit" };
      case "ctrl-d":
        if (this.text === "") return { kind: "exit" };
        return this.#delete(1);
      case "tab":
        return { kind: "complete" };
      case "shift-tab":
        return { kind: "cycle" };
      case "ctrl-l":
        return { kind: "clear-screen" };
      case "ctrl-r":
        this.search = "";
        return { kind: "edit" };
      default:
        return this.#move(key.kind);
    }
  }

  #move(kind: string): EditOutcome {
    const before = this.text.slice(0, this.cursor);
    const lineStart = before.lastIndexOf("\n") + 1;
    const lineEnd = (this.text.indexOf("\n", this.cursor) + 1 || this.text.length + 1) - 1;
    switch (kind) {
      case "backspace":
        return this.#delete(-1);
      case "delete":
        return this.#delete(1);
      case "left":
        this.cursor = Math.max(0, this.cursor - charBefore(this.text, this.cursor).length);
        break;
      case "right":
        this.cursor = Math.min(this.text.length, this.cursor + charAt(this.text, this.cursor).length);
        break;
      case "home":
        this.cursor = lineStart;
        break;
      case "end":
        this.cursor = lineEnd;
        break;
      case "word-left":
        this.cursor = before.search(/\S+\s*$/) >= 0 ? before.search(/\S+\s*$/) : 0;
        break;
      case "word-right": {
        const match = /^\s*\S+/.exec(this.text.slice(this.cursor));
        this.cursor += match ? match[0].length : this.text.length - this.cursor;
        break;
      }
      case "delete-word": {
        const start = before.search(/\S+\s*$/);
        this.replaceBefore(start >= 0 ? start : 0, "");
        break;
      }
      case "kill-start":
        this.replaceBefore(lineStart, "");
        break;
      case "kill-end":
        this.text = this.text.slice(0, this.cursor) +
          this.text.slice(lineEnd === this.cursor ? lineEnd + 1 : lineEnd);
        break;
      case "up":
        if (lineStart > 0) return this.#vertical(-1);
        return this.#browseHistory(-1);
      case "down":
        if (lineEnd < this.text.length) return this.#vertical(1);
        return this.#browseHistory(1);
      default:
        return { kind: "none" };
    }
    return { kind: "edit" };
  }

  /** Backspace deletes a whole paste marker; otherwise one character either side. */
  #delete(direction: 1 | -1): EditOutcome {
    if (direction < 0) {
      const before = this.text.slice(0, this.cursor);
      const marker = [...this.#pastes.keys()].find((key) => before.endsWith(key));
      const size = marker?.length ?? charBefore(this.text, this.cursor).length;
      this.replaceBefore(this.cursor - size, "");
    } else {
      this.text = this.text.slice(0, this.cursor) +
        this.text.slice(this.cursor + charAt(this.text, this.cursor).length);
    }
    return { kind: "edit" };
  }

  #vertical(direction: 1 | -1): EditOutcome {
    const lines = this.text.split("\n");
    const before = this.text.slice(0, this.cursor).split("\n");
    const row = before.length - 1;
    const column = before[row].length;
    const target = row + direction;
    let offset = 0;
    for (let i = 0; i < target; i++) offset += lines[i].length + 1;
    this.cursor = offset + Math.min(column, lines[target].length);
    return { kind: "edit" };
  }

  #browseHistory(direction: 1 | -1): EditOutcome {
    const next = this.#browse + direction;
    if (next < 0 || next > this.#history.length) return { kind: "none" };
    if (this.#browse === this.#history.length) this.#draft = this.text;
    this.#browse = next;
    this.#reset(next === this.#history.length ? this.#draft : this.#history[next], true);
    this.#collapse();
    return { kind: "edit" };
  }

  #applySearch(key: InputKey): EditOutcome {
    if (key.kind === "text") this.search += key.text;
    else if (key.kind === "backspace") this.search = this.search!.slice(0, -1);
    else if (key.kind === "ctrl-r") return { kind: "none" };
    else {
      const found = this.searchMatch();
      this.search = undefined;
      if (key.kind === "escape" || key.kind === "ctrl-c") return { kind: "edit" };
      if (found !== undefined) {
        this.#reset(found, true);
        this.#collapse();
      }
      return key.kind === "enter" ? this.apply(key) : { kind: "edit" };
    }
    return { kind: "edit" };
  }

  /** A recalled entry too tall to edit on screen is held behind a paste marker, like the paste it was. */
  #collapse(): void {
    const lines = this.text.split("\n").length;
    if (lines <= MAX_SHOWN_LINES || [...this.#pastes.keys()].some((marker) => this.text.includes(marker))) {
      return;
    }
    const text = this.text;
    this.#reset("", true);
    this.#paste(text);
  }

  #paste(raw: string): void {
    const text = raw.replace(/\r\n?/g, "\n");
    const lines = text.replace(/\n$/, "").split("\n").length;
    if (lines < 2 && text.length < PASTE_MARKER_CHARS) return this.insert(text);
    const marker = `[pasted ${lines > 1 ? `${lines} lines` : `${text.length} chars`} #${
      this.#pastes.size + 1
    }]`;
    this.#pastes.set(marker, text);
    this.insert(marker);
  }

  #reset(text: string, keepPastes = false): void {
    this.text = text;
    this.cursor = text.length;
    if (!keepPastes) this.#pastes.clear();
  }
}

function charBefore(text: string, index: number): string {
  if (index <= 0) return "";
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text[index - 1];
}

function charAt(text: string, index: number): string {
  if (index >= text.length) return "";
  return String.fromCodePoint(text.codePointAt(index)!);
}
