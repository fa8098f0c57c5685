import { assertEquals, assertStrictEquals } from "../../support/assert.ts";
import {
  bareCrCount,
  endingFinder,
  endingFreeSearch,
  fromView,
  lfView,
  mixesEndings,
  spanEndings,
  withEnding,
} from "../../../src/tools/edit/line_endings.ts";

Deno.test("lfView() makes CRLF LF and fromView() maps spans back over the dropped CRs", () => {
  const text = "ab\r\ncd\r\nef\n";
  const view = lfView(text);
  assertEquals(view, { text: "ab\ncd\nef\n", crlfAt: [2, 5] });
  // "cd\n" in the view is "cd\r\n" in the file; a span starting at a view LF starts at its CR.
  assertEquals([fromView(view, 3), fromView(view, 6)], [4, 8]);
  assertEquals([fromView(view, 2), fromView(view, 3)], [2, 4]);
  assertEquals([fromView(view, 0), fromView(view, 2)], [0, 2]);
  assertStrictEquals(fromView(view, view.text.length), text.length);
});

Deno.test("lfView() leaves a text without CRLF as it is, bare CRs included", () => {
  assertEquals(lfView("a\rb\nc"), { text: "a\rb\nc", crlfAt: [] });
});

Deno.test("endingFinder() takes the span's own ending, else its line's, else the file's most common", () => {
  const crlf = endingFinder("a\r\nb\r\nc");
  assertStrictEquals(crlf(0, 4), "\r\n");
  assertStrictEquals(crlf(3, 4), "\r\n"); // "b" ends its line with CRLF
  assertStrictEquals(crlf(6, 7), "\r\n"); // the unterminated last line: the file's most common
  const mixed = endingFinder("a\r\nb\nc\n");
  assertStrictEquals(mixed(3, 6), "\n");
  assertStrictEquals(mixed(0, 1), "\r\n");
  assertStrictEquals(mixed(0, 6), "\r\n"); // a span of both kinds: the break ending its first line
  assertStrictEquals(endingFinder("a\rb\rc")(2, 3), "\r");
  assertStrictEquals(endingFinder("no break")(0, 2), "\n");
});

Deno.test("endingFinder() answers replace_all's many calls on one long unterminated line the same", () => {
  const text = `${"x ".repeat(1000)}`;
  const find = endingFinder(`a\r\n${text}`);
  for (let at = 3; at < text.length; at += 200) assertStrictEquals(find(at, at + 1), "\r\n");
});

Deno.test("withEnding() writes every break of new_text as the file's", () => {
  assertStrictEquals(withEnding("a\r\nb\nc", "\n"), "a\nb\nc");
  assertStrictEquals(withEnding("a\r\nb\nc", "\r\n"), "a\r\nb\r\nc");
  assertStrictEquals(withEnding("a\rb\nc", "\r\n"), "a\rb\r\nc"); // a lone CR is no break in a CRLF file
  assertStrictEquals(withEnding("a\r\nb\nc\rd", "\r"), "a\rb\rc\rd");
});

Deno.test("spanEndings(), mixesEndings() and bareCrCount() name what a text holds", () => {
  assertStrictEquals(spanEndings("a\r\nb\nc", 0, 6), "CRLF+LF");
  assertStrictEquals(spanEndings("a\r\nb\nc", 0, 1), "");
  assertStrictEquals(mixesEndings("a\r\nb\n"), true);
  assertStrictEquals(mixesEndings("\na\r\n"), true);
  assertStrictEquals(mixesEndings("a\r\nb\r\n"), false);
  assertStrictEquals(mixesEndings("a\nb\n"), false);
  assertStrictEquals(bareCrCount("a\rb\r\nc\r"), 2);
  assertStrictEquals(bareCrCount("a\r\n"), 0);
});

Deno.test("endingFreeSearch() finds CRLF and LF copies alike, and in a file of one kind as its LF view would", () => {
  assertEquals(endingFreeSearch("a\r\nb\na\nb\n")("a\nb", { overlapping: true }), [[0, 4], [5, 8]]);
  assertEquals(endingFreeSearch("a\r\nb\r\n")("a\r\nb", { overlapping: true }), [[0, 4]]);
  assertEquals(endingFreeSearch("aaa")("aa", { overlapping: false }), [[0, 2]]);
  // 3,000 small texts of a, CR and LF: the quick path and the view agree on every needle.
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const pick = () =>
    Array.from({ length: 1 + random(8) }, () => ["a", "\r", "\n", "\r\n"][random(4)]).join("");
  for (let i = 0; i < 3000; i++) {
    const text = pick() + pick();
    const needle = pick().slice(0, 1 + random(4));
    const view = lfView(text);
    const lf = needle.replaceAll("\r\n", "\n");
    const expected: [number, number][] = [];
    for (let at = view.text.indexOf(lf); at !== -1; at = view.text.indexOf(lf, at + 1)) {
      expected.push([fromView(view, at), fromView(view, at + lf.length)]);
    }
    assertEquals(
      endingFreeSearch(text)(needle, { overlapping: true }),
      expected,
      JSON.stringify([text, needle]),
    );
  }
});
