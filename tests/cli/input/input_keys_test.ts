import { assertEquals } from "../../support/assert.ts";
import { InputDecoder } from "../../../src/cli/input/input_keys.ts";

Deno.test("InputDecoder reads text, control keys and escape sequences", () => {
  const decoder = new InputDecoder();
  assertEquals(decoder.feed("ab\x1b[A\x1b[1;5D\x7f\r\x1b\r\n\x1b[Z\x03\x04\t"), [
    { kind: "text", text: "ab" },
    { kind: "up" },
    { kind: "word-left" },
    { kind: "backspace" },
    { kind: "enter" },
    { kind: "newline" },
    { kind: "newline" },
    { kind: "shift-tab" },
    { kind: "ctrl-c" },
    { kind: "ctrl-d" },
    { kind: "tab" },
  ]);
});

Deno.test("InputDecoder keeps a bracketed paste whole, even split across reads", () => {
  const decoder = new InputDecoder();
  assertEquals(decoder.feed("x\x1b[200~line 1\r\nli"), [{ kind: "text", text: "x" }]);
  assertEquals(decoder.feed("ne 2\x1b[20"), []);
  assertEquals(decoder.feed("1~y"), [{ kind: "paste", text: "line 1\r\nline 2" }, {
    kind: "text",
    text: "y",
  }]);
});

Deno.test("InputDecoder holds a lone ESC until flush, and a split sequence until it completes", () => {
  const decoder = new InputDecoder();
  assertEquals(decoder.feed("\x1b"), []);
  assertEquals(decoder.flush(), [{ kind: "escape" }]);
  assertEquals(decoder.feed("\x1b["), []);
  assertEquals(decoder.feed("B"), [{ kind: "down" }]);
});
