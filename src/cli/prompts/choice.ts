/**
 * A numbered choice on the terminal, drawn in place: digits pick at once, arrows and Enter pick the
 * highlighted one, and Esc, Ctrl-C or Ctrl-D cancel (every time: the terminal is always given back).
 */
import process from "node:process";
import { styleText } from "../render/style.ts";
import { InputDecoder, type InputKey } from "../input/input_keys.ts";

/** One choice; a disabled one is shown greyed with why and cannot be picked. */
export interface Choice<T> {
  name: string;
  value: T;
  disabled?: string;
}

/** Where the prompt reads and writes (stdin and stdout by default). */
export interface ChoiceIo {
  input?: typeof process.stdin;
  write?: (text: string) => void;
  useColor?: boolean;
}

/** Resolves with the chosen value, or `undefined` when cancelled (Esc, Ctrl-C, Ctrl-D). */
export function chooseOne<T>(
  message: string,
  choices: Choice<T>[],
  io: ChoiceIo = {},
): Promise<T | undefined> {
  return new Promise((resolve) => new ChoiceRead(message, choices, io, resolve).start());
}

/** What a key does to the choice: nothing yet, or the end (a value, or undefined for cancelled). */
type KeyOutcome<T> = { done: false } | { done: true; value: T | undefined };

/** One choice being made: raw mode on, the list drawn in place, keys applied until one ends it. */
class ChoiceRead<T> {
  readonly #message: string;
  readonly #choices: Choice<T>[];
  readonly #input: typeof process.stdin;
  readonly #write: (text: string) => void;
  readonly #useColor: boolean;
  readonly #resolve: (value: T | undefined) => void;
  readonly #enabled: number[];
  readonly #decoder = new InputDecoder();
  #selected: number;
  #drawn = false;
  /** Why the last key picked nothing (a greyed-out choice's number), shown under the list until the next key. */
  #note = "";
  /** Rows drawn below the message: the choices, and the note when there is one. */
  #rows = 0;
  #timer?: ReturnType<typeof setTimeout>;

  constructor(message: string, choices: Choice<T>[], io: ChoiceIo, resolve: (value: T | undefined) => void) {
    this.#message = message;
    this.#choices = choices;
    this.#input = io.input ?? process.stdin;
    this.#write = io.write ?? ((text: string) => void process.stdout.write(text));
    this.#useColor = io.useColor !== false;
    this.#resolve = resolve;
    this.#enabled = choices.map((choice, i) => (choice.disabled ? -1 : i)).filter((i) => i >= 0);
    this.#selected = this.#enabled[0] ?? 0;
  }

  start(): void {
    this.#input.setRawMode(true);
    this.#input.on("data", this.#onData);
    this.#input.resume();
    this.#draw();
  }

  #paint(color: "cyan" | "gray" | "bold", text: string): string {
    return this.#useColor ? styleText(color, text) : text;
  }

  #draw(): void {
    const paint = this.#paint.bind(this);
    let out = this.#drawn ? `\x1b[${this.#rows}A\r\x1b[J` : `${paint("bold", "?")} ${this.#message}\r\n`;
    this.#choices.forEach((choice, i) => {
      const label = `${i + 1}. ${choice.name}`;
      if (choice.disabled) out += `  ${paint("gray", `${label} ${choice.disabled}`)}\r\n`;
      else if (i === this.#selected) out += `${paint("cyan", `❯ ${label}`)}\r\n`;
      else out += `  ${label}\r\n`;
    });
    if (this.#note) out += `  ${paint("gray", this.#note)}\r\n`;
    this.#rows = this.#choices.length + (this.#note ? 1 : 0);
    this.#drawn = true;
    this.#write(out);
  }

  #done(value: T | undefined): void {
    clearTimeout(this.#timer);
    this.#input.off("data", this.#onData);
    this.#input.setRawMode(false);
    this.#input.pause();
    this.#write(`\x1b[${this.#rows}A\r\x1b[J`);
    this.#write(
      value === undefined
        ? `  ${this.#paint("gray", "cancelled")}\r\n`
        : `  ${this.#paint("cyan", "→")} ${this.#choices[this.#selected].name}\r\n`,
    );
    this.#resolve(value);
  }

  #onKey(key: InputKey): KeyOutcome<T> {
    const had = this.#note;
    this.#note = "";
    if (key.kind === "escape" || key.kind === "ctrl-c" || key.kind === "ctrl-d") {
      return { done: true, value: undefined };
    }
    if (key.kind === "up" || key.kind === "down") {
      const enabled = this.#enabled;
      const at = enabled.indexOf(this.#selected) + (key.kind === "up" ? -1 : 1);
      this.#selected = enabled[(at + enabled.length) % enabled.length];
      this.#draw();
    } else if (key.kind === "enter") return { done: true, value: this.#choices[this.#selected].value };
    else if (
      key.kind === "text" && /^[1-9]$/.test(key.text) && this.#enabled.includes(Number(key.text) - 1)
    ) {
      this.#selected = Number(key.text) - 1;
      return { done: true, value: this.#choices[this.#selected].value };
    } else if (key.kind === "text" && /^[1-9]$/.test(key.text) && this.#choices[Number(key.text) - 1]) {
      // A greyed-out choice's number: say why it cannot be picked, instead of nothing.
      const choice = this.#choices[Number(key.text) - 1];
      this.#note = `${key.text} cannot be picked: ${choice.disabled!.replace(/^\((.*)\)$/, "$1")}`;
      this.#draw();
    } else if (had) this.#draw();
    return { done: false };
  }

  /** Applies `keys` in order until one ends the choice; says whether one did. */
  #apply(keys: InputKey[]): boolean {
    for (const key of keys) {
      const outcome = this.#onKey(key);
      if (outcome.done) {
        this.#done(outcome.value);
        return true;
      }
    }
    return false;
  }

  readonly #onData = (chunk: Uint8Array | string): void => {
    clearTimeout(this.#timer);
    const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    if (this.#apply(this.#decoder.feed(text))) return;
    this.#timer = setTimeout(() => this.#apply(this.#decoder.flush()), 30);
  };
}
