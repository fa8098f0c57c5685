import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { type CancelKey, type KeyInput, KeyParser, listenForCancel } from "../../../src/cli/input/keys.ts";
import { startTmux } from "../../support/tmux.ts";
import { testNeeding } from "../../support/requires.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("KeyParser reads Ctrl-C as a cancel key at once", () => {
  assertEquals(new KeyParser().feed(bytes("\x03")), ["ctrl-c"]);
  assertEquals(new KeyParser().feed(bytes("ab\x03c\x03")), ["ctrl-c", "ctrl-c"]);
});

Deno.test("KeyParser holds a lone ESC until flush, then reads it as Esc", () => {
  const parser = new KeyParser();
  assertEquals(parser.feed(bytes("\x1b")), []);
  assertEquals(parser.pendingEscape, true);
  assertEquals(parser.flush(), ["escape"]);
  assertEquals(parser.pendingEscape, false);
  assertEquals(parser.flush(), []);
});

Deno.test("KeyParser never cancels on arrow keys, in normal or application mode", () => {
  const parser = new KeyParser();
  for (const key of ["\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1bOA", "\x1bOD", "\x1b[1;5C", "\x1b[3~"]) {
    assertEquals(parser.feed(bytes(key)), [], JSON.stringify(key));
    assertEquals(parser.pendingEscape, false, JSON.stringify(key));
    assertEquals(parser.flush(), [], JSON.stringify(key));
  }
});

Deno.test("KeyParser recognises an arrow key split across two reads", () => {
  const parser = new KeyParser();
  assertEquals(parser.feed(bytes("\x1b")), []);
  assertEquals(parser.feed(bytes("[")), []);
  assertEquals(parser.feed(bytes("A")), []);
  assertEquals(parser.flush(), []);
  assertEquals(parser.feed(bytes("\x1b[1;")), []);
  assertEquals(parser.feed(bytes("5D")), []);
  assertEquals(parser.flush(), []);
});

Deno.test("KeyParser ignores Alt combinations and plain typing", () => {
  const parser = new KeyParser();
  assertEquals(parser.feed(bytes("hello \x1bx \x1bb")), []);
  assertEquals(parser.flush(), []);
});

Deno.test("KeyParser reads ESC ESC as Esc and keeps the second pending", () => {
  const parser = new KeyParser();
  assertEquals(parser.feed(bytes("\x1b\x1b")), ["escape"]);
  assertEquals(parser.flush(), ["escape"]);
});

Deno.test("KeyParser reads Esc after an arrow key in the same read", () => {
  const parser = new KeyParser();
  assertEquals(parser.feed(bytes("\x1b[A\x1b")), []);
  assertEquals(parser.flush(), ["escape"]);
});

Deno.test("KeyParser reads Ctrl-C inside an unfinished sequence", () => {
  const parser = new KeyParser();
  assertEquals(parser.feed(bytes("\x1b[1\x03")), ["ctrl-c"]);
  assertEquals(parser.flush(), []);
});

/** A stand-in tty stream recording what the listener does to it. */
function fakeInput(isTTY = true) {
  const calls: string[] = [];
  const listeners = new Set<(chunk: Uint8Array | string) => void>();
  const input: KeyInput = {
    isTTY,
    setRawMode: (mode) => calls.push(`raw ${mode}`),
    on: (_event, listener) => listeners.add(listener),
    off: (_event, listener) => listeners.delete(listener),
    resume: () => calls.push("resume"),
    pause: () => calls.push("pause"),
  };
  const type = (text: string | Uint8Array) => listeners.forEach((listener) => listener(text));
  return { input, calls, listeners, type };
}

Deno.test("listenForCancel() takes raw stdin, gives it back on pause, and releases it for good on stop", () => {
  const { input, calls, listeners, type } = fakeInput();
  const keys: CancelKey[] = [];
  const listener = listenForCancel((key) => keys.push(key), { input });
  assertEquals(calls, ["raw true", "resume"]);
  type(bytes("\x03"));
  assertEquals(keys, ["ctrl-c"]);
  listener.pause();
  listener.pause();
  assertEquals(listeners.size, 0);
  listener.resume();
  type("\x03");
  listener.stop();
  listener.resume();
  listener.stop();
  assertEquals(keys, ["ctrl-c", "ctrl-c"]);
  assertEquals(calls, [
    "raw true",
    "resume",
    "raw false",
    "pause",
    "raw true",
    "resume",
    "raw false",
    "pause",
  ]);
  assertEquals(listeners.size, 0);
});

Deno.test("listenForCancel() reports a lone Esc after the wait and an arrow key never", async () => {
  const { input, type } = fakeInput();
  const keys: CancelKey[] = [];
  const listener = listenForCancel((key) => keys.push(key), { input });
  try {
    type(bytes("\x1b[A"));
    type(bytes("\x1b"));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (keys.length > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    assertEquals(keys, ["escape"]);
  } finally {
    listener.stop();
  }
});

Deno.test("listenForCancel() leaves stdin alone when it is not a terminal", () => {
  const { input, calls, listeners } = fakeInput(false);
  const listener = listenForCancel(() => {}, { input });
  listener.pause();
  listener.resume();
  listener.stop();
  assertEquals(calls, []);
  assertEquals(listeners.size, 0);
});

testNeeding(
  ["tmux"],
  "listenForCancel() on a real terminal: Esc and Ctrl-C cancel, arrows do not, prompts and the next line still read",
  async () => {
    const driver = new URL("./_keys_driver.ts", import.meta.url).pathname;
    const config = new URL("../../../deno.json", import.meta.url).pathname;
    const command =
      `'${Deno.execPath()}' run --no-prompt --allow-env --allow-run=stty --config '${config}' '${driver}'; ` +
      "echo EXITED; sleep 30";
    await using session = await startTmux(command, { width: 100, height: 30 });
    await session.waitFor("listening");
    for (const key of ["Up", "Down", "Left", "Right", "M-x", "a", "b"]) await session.send(key);
    await session.send("Escape");
    await session.waitFor("cancel 1: escape");
    await session.send("C-c");
    let screen = await session.waitFor("Proceed?");
    assertStringIncludes(screen, "cancel 2: ctrl-c");
    await session.send("y");
    await session.send("Enter");
    await session.waitFor("listening again");
    await session.send("Escape");
    screen = await session.waitFor("next>");
    assertStringIncludes(screen, "cancel 3: escape");
    assertStringIncludes(screen, "stopped: cooked");
    await session.send("hello", "Enter");
    screen = await session.waitFor("EXITED");
    assertStringIncludes(screen, "answer: true");
    assertStringIncludes(screen, "line: hello");
    // Arrows, Alt-x and plain letters typed during the turn cancelled nothing.
    assertEquals(screen.match(/cancel \d/g), ["cancel 1", "cancel 2", "cancel 3"]);
  },
);
