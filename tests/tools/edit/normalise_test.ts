import { assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { characterAt, normaliseText, toOriginal } from "../../../src/tools/edit/normalise.ts";

Deno.test("normaliseText() keeps the line structure and drops trailing whitespace, CR included", () => {
  assertStrictEquals(normaliseText("a  \r\n\tb\t\n\n").text, "a\n\tb\n\n");
});

Deno.test("normaliseText() applies NFKC and makes quotes, dashes and special spaces plain", () => {
  assertStrictEquals(normaliseText("“q” ‘s’ a—b x\u00A0y ﬁ Ａ").text, `"q" 's' a-b x y fi A`);
});

Deno.test("toOriginal() maps normalised offsets back, -1 inside a character's expansion", () => {
  const text = "a ﬁ b\n\u00A0x \r\n";
  const normalised = normaliseText(text);
  assertStrictEquals(normalised.text, "a fi b\n x\n");
  const mapped = [...Array(normalised.text.length + 1).keys()].map((at) => toOriginal(normalised, at));
  assertEquals(mapped, [0, 1, 2, -1, 3, 4, 5, 6, 7, 9, 11]);
});

Deno.test("toOriginal() puts both ends of an empty normalised line at its start unless told to prefer the end", () => {
  const normalised = normaliseText("a\n   \nb");
  assertStrictEquals(toOriginal(normalised, 2), 2);
  assertStrictEquals(toOriginal(normalised, 2, true), 5);
});

Deno.test("characterAt() finds the original character an offset falls inside", () => {
  const normalised = normaliseText("x ﬃ y");
  assertStrictEquals(normalised.text, "x ffi y");
  assertEquals(characterAt(normalised, 4), { start: 2, end: 3 });
});
