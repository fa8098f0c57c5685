import { assertEquals } from "../../support/assert.ts";
import { LineEditor } from "../../../src/cli/input/line_editor.ts";
import type { InputKey } from "../../../src/cli/input/input_keys.ts";

const text = (t: string): InputKey => ({ kind: "text", text: t });
const key = (kind: Exclude<InputKey, { text: string }>["kind"]): InputKey => ({ kind } as InputKey);

Deno.test("LineEditor keeps a multi-line paste behind a marker, editable, and submits it whole", () => {
  const editor = new LineEditor();
  const pasted = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\r\n");
  editor.apply(text("fix: "));
  editor.apply({ kind: "paste", text: pasted });
  assertEquals(editor.text, "fix: [pasted 50 lines #1]");
  editor.apply(text(" please"));
  const outcome = editor.apply(key("enter"));
  assertEquals(outcome, { kind: "submit", text: `fix: ${pasted.replaceAll("\r\n", "\n")} please` });
});

Deno.test("LineEditor deletes a paste marker with one backspace", () => {
  const editor = new LineEditor();
  editor.apply({ kind: "paste", text: "a\nb" });
  editor.apply(key("backspace"));
  assertEquals(editor.text, "");
});

Deno.test("LineEditor inserts newlines with Alt+Enter, Ctrl-J and a trailing backslash", () => {
  const editor = new LineEditor();
  editor.apply(text("one"));
  editor.apply(key("newline"));
  editor.apply(text("two\\"));
  assertEquals(editor.apply(key("enter")), { kind: "edit" });
  editor.apply(text("three"));
  assertEquals(editor.apply(key("enter")), { kind: "submit", text: "one\ntwo\nthree" });
});

Deno.test("LineEditor moves between lines with up/down and through history at the edges", () => {
  const editor = new LineEditor(["old 1", "old 2"]);
  editor.apply(text("draft"));
  editor.apply(key("up"));
  assertEquals(editor.text, "old 2");
  editor.apply(key("up"));
  assertEquals(editor.text, "old 1");
  editor.apply(key("down"));
  editor.apply(key("down"));
  assertEquals(editor.text, "draft");
  editor.apply(key("newline"));
  editor.apply(text("x"));
  editor.apply(key("up"));
  assertEquals(editor.cursor, 1); // column 1 of the first line, not history
});

Deno.test("LineEditor finds history with Ctrl-R and runs the match on Enter", () => {
  const editor = new LineEditor(["npm test", "git status", "npm run build"]);
  editor.apply(key("ctrl-r"));
  editor.apply(text("test"));
  assertEquals(editor.searchMatch(), "npm test");
  assertEquals(editor.apply(key("enter")), { kind: "submit", text: "npm test" });
});

Deno.test("LineEditor: Ctrl-C clears a line, then interrupts; Ctrl-D exits only when empty", () => {
  const editor = new LineEditor();
  editor.apply(text("abc"));
  editor.apply(key("left"));
  assertEquals(editor.apply(key("ctrl-d")), { kind: "edit" });
  assertEquals(editor.text, "ab");
  assertEquals(editor.apply(key("ctrl-c")), { kind: "edit" });
  assertEquals(editor.text, "");
  assertEquals(editor.apply(key("ctrl-c")), { kind: "interrupt" });
  assertEquals(editor.apply(key("ctrl-d")), { kind: "exit" });
});

Deno.test("LineEditor recalls a tall history entry behind a marker and submits it whole", () => {
  const tall = Array.from({ length: 30 }, (_, i) => `row ${i}`).join("\n");
  const editor = new LineEditor([tall]);
  editor.apply(key("up"));
  assertEquals(editor.text, "[pasted 30 lines #1]");
  assertEquals(editor.apply(key("enter")), { kind: "submit", text: tall });
});
