/**
 * Terminal input → editing keys: printable text, control keys, escape sequences (arrows, Home/End, Delete,
 * Ctrl/Alt+arrows, Shift+Tab, Alt+Enter) and bracketed pastes, which arrive whole as one `paste` key.
 * Pure and stateful across chunks: a sequence or a paste split between reads is still one key.
 */

/** One key (or pasted block) the editor acts on. */
export type InputKey =
  | { kind: "text"; text: string }
  | { kind: "paste"; text: string }
  | {
    kind:
      | "enter"
      | "newline"
      | "backspace"
      | "delete"
      | "left"
      | "right"
      | "up"
      | "down"
      | "home"
      | "end"
      | "word-left"
      | "word-right"
      | "delete-word"
      | "kill-start"
      | "kill-end"
      | "tab"
      | "shift-tab"
      | "escape"
      | "ctrl-c"
      | "ctrl-d"
      | "ctrl-r"
      | "ctrl-l";
  };

type Kind = Exclude<InputKey, { text: string }>["kind"];

const CONTROL: Record<string, Kind> = {
  "\r": "enter",
  "\n": "newline", // Ctrl-J
  "\x7f": "backspace",
  "\b": "backspace",
  "\t": "tab",
  "\x01": "home",
  "\x05": "end",
  "\x02": "left",
  "\x06": "right",
  "\x10": "up",
  "\x0e": "down",
  "\x0b": "kill-end",
  "\x15": "kill-start",
  "\x17": "delete-word",
  "\x03": "ctrl-c",
  "\x04": "ctrl-d",
  "\x12": "ctrl-r",
  "\x0c": "ctrl-l",
};

/** CSI and SS3 sequences after ESC, by their text. */
const SEQUENCES: Record<string, Kind> = {
  "[A": "up",
  "[B": "down",
  "[C": "right",
  "[D": "left",
  "[H": "home",
  "[F": "end",
  "OA": "up",
  "OB": "down",
  "OC": "right",
  "OD": "left",
  "OH": "home",
  "OF": "end",
  "[1~": "home",
  "[7~": "home",
  "[4~": "end",
  "[8~": "end",
  "[3~": "delete",
  "[Z": "shift-tab",
  "[1;5C": "word-right",
  "[1;5D": "word-left",
  "[1;3C": "word-right",
  "[1;3D": "word-left",
  "[13;2u": "newline", // Shift+Enter (kitty protocol)
  "[27;2;13~": "newline",
};

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Decodes chunks of terminal input into keys. */
export class InputDecoder {
  #pending = "";
  #paste: string | undefined;

  /** Consumes one chunk; returns the complete keys in it. A lone ESC at the end waits for `flush()`. */
  feed(chunk: string): InputKey[] {
    this.#pending += chunk;
    const keys: InputKey[] = [];
    while (this.#pending !== "") {
      if (this.#paste !== undefined) {
        const end = this.#pending.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible start of the end marker for the next chunk.
          const keep = this.#pending.lastIndexOf("\x1b");
          const cut = keep >= 0 && PASTE_END.startsWith(this.#pending.slice(keep))
            ? keep
            : this.#pending.length;
          this.#paste += this.#pending.slice(0, cut);
          this.#pending = this.#pending.slice(cut);
          break;
        }
        keys.push({ kind: "paste", text: this.#paste + this.#pending.slice(0, end) });
        this.#paste = undefined;
        this.#pending = this.#pending.slice(end + PASTE_END.length);
        continue;
      }
      const taken = this.#next(keys);
      if (taken === 0) break;
      this.#pending = this.#pending.slice(taken);
    }
    return keys;
  }

  /** Ends a wait: a pending lone ESC is the Esc key. */
  flush(): InputKey[] {
    const lone = this.#pending === "\x1b";
    if (lone) this.#pending = "";
    return lone ? [{ kind: "escape" }] : [];
  }

  /** Reads one key off the front of the pending input; returns the characters used (0: wait for more). */
  #next(keys: InputKey[]): number {
    const input = this.#pending;
    if (input.startsWith(PASTE_START)) {
      this.#paste = "";
      return PASTE_START.length;
    }
    if (input[0] === "\x1b") return this.#escape(input, keys);
    if (Object.hasOwn(CONTROL, input[0])) {
      keys.push({ kind: CONTROL[input[0]] });
      return 1;
    }
    // deno-lint-ignore no-control-regex -- text runs until the next control character
    const run = /^[^\x00-\x1f\x7f]+/.exec(input)?.[0];
    if (run) {
      keys.push({ kind: "text", text: run });
      return run.length;
    }
    return 1; // another control character: ignored
  }

  #escape(input: string, keys: InputKey[]): number {
    if (input.length === 1) return 0;
    const second = input[1];
    if (second === "[" || second === "O") {
      // CSI: parameters 0x30-0x3f, intermediates 0x20-0x2f, then a final byte 0x40-0x7e. SS3: one byte.
      // deno-lint-ignore no-control-regex -- escape sequences start with ESC
      const match = second === "O" ? /^\x1bO./.exec(input) : /^\x1b\[[0-?]*[ -/]*[@-~]/.exec(input);
      if (!match) return PASTE_START.startsWith(input) || input.length < 8 ? 0 : 1;
      const kind = SEQUENCES[match[0].slice(1)];
      if (kind) keys.push({ kind });
      return match[0].length;
    }
    if (second === "\r" || second === "\n") keys.push({ kind: "newline" }); // Alt+Enter
    else if (second === "\x7f" || second === "\b") keys.push({ kind: "delete-word" });
    else if (second === "b") keys.push({ kind: "word-left" });
    else if (second === "f") keys.push({ kind: "word-right" });
    else if (second === "\x1b") {
      keys.push({ kind: "escape" });
      return 1;
    }
    return 2;
  }
}
