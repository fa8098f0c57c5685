/**
 * A numbered choice on the terminal, drawn in place: digits pick at once, arrows and Enter pick the
 * highlighted one, and Esc, Ctrl-C or Ctrl-D cancel (every time: the terminal is always given back).
 */
import process from "node:process";
import { styleText } from "node:util";
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
  const input = io.input ?? process.stdin;
  const write = io.write ?? ((text: string) => void process.stdout.write(text));
  const paint = (color: "cyan" | "gray" | "bold", text: string) =>
    io.useColor === false ? text : styleText(color, text, { validateStream: false });
  const enabled = choices.map((choice, i) => (choice.disabled ? -1 : i)).filter((i) => i >= 0);
  let selected = enabled[0] ?? 0;
  let drawn = false;
  const draw = () => {
    let out = drawn ? `\x1b[${choices.length}A\r\x1b[J` : `${paint("bold", "?")} ${message}\r\n`;
    choices.forEach((choice, i) => {
      const label = `${i + 1}. ${choice.name}`;
      if (choice.disabled) out += `  ${paint("gray", `${label} ${choice.disabled}`)}\r\n`;
      else if (i === selected) out += `${paint("cyan", `❯ ${label}`)}\r\n`;
      else out += `  ${label}\r\n`;
    });
    drawn = true;
    write(out);
  };
  return new Promise((resolve) => {
    const decoder = new InputDecoder();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (value: T | undefined) => {
      clearTimeout(timer);
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      write(`\x1b[${choices.length}A\r\x1b[J`);
      write(
        value === undefined
          ? `  ${paint("gray", "cancelled")}\r\n`
          : `  ${paint("cyan", "→")} ${choices[selected].name}\r\n`,
      );
      resolve(value);
    };
    const onKey = (key: InputKey): boolean => {
      if (key.kind === "escape" || key.kind === "ctrl-c" || key.kind === "ctrl-d") {
        done(undefined);
        return true;
      }
      if (key.kind === "up" || key.kind === "down") {
        const at = enabled.indexOf(selected) + (key.kind === "up" ? -1 : 1);
        selected = enabled[(at + enabled.length) % enabled.length];
        draw();
      } else if (key.kind === "enter") {
        done(choices[selected].value);
        return true;
      } else if (key.kind === "text" && /^[1-9]$/.test(key.text) && enabled.includes(Number(key.text) - 1)) {
        selected = Number(key.text) - 1;
        done(choices[selected].value);
        return true;
      }
      return false;
    };
    const onData = (chunk: Uint8Array | string) => {
      clearTimeout(timer);
      const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      for (const key of decoder.feed(text)) if (onKey(key)) return;
      timer = setTimeout(() => decoder.flush().some(onKey), 30);
    };
    input.setRawMode(true);
    input.on("data", onData);
    input.resume();
    draw();
  });
}
