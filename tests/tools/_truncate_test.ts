import { assert, assertStrictEquals } from "../support/assert.ts";
import { cutAround, cutLine, HeadTail, truncateMiddle } from "../../src/tools/_truncate.ts";

Deno.test("truncateMiddle() leaves short text alone", () => {
  assertStrictEquals(truncateMiddle("short", 10), "short");
});

Deno.test("truncateMiddle() keeps head and tail and counts the cut", () => {
  assertStrictEquals(truncateMiddle("abcdefghij", 4), "ab\n… [6 characters cut] …\nij");
});

Deno.test("HeadTail keeps bounded memory over a flood and matches truncateMiddle", () => {
  const capture = new HeadTail(100);
  let all = "";
  for (let i = 0; i < 20_000; i++) {
    const chunk = `line ${i}\n`;
    capture.push(chunk);
    all += chunk;
  }
  assertStrictEquals(capture.toString(), truncateMiddle(all, 100));
});

Deno.test("HeadTail never splits a surrogate pair at the head boundary", () => {
  const text = "a" + "😀".repeat(10);
  const out = new HeadTail(4).push(text).toString();
  assert(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(out), JSON.stringify(out));
});

Deno.test("cutLine() cuts after max characters with a marker", () => {
  assertStrictEquals(cutLine("abcdef", 4), "abcd… [line cut: 2 more characters]");
  assertStrictEquals(cutLine("abc", 4), "abc");
});

Deno.test("cutAround() keeps a short line whole and cuts a long one to a window showing the focus", () => {
  assertStrictEquals(cutAround("short", 2, 300), "short");
  const line = `${"a".repeat(1000)}MATCH${"b".repeat(1000)}`;
  assertStrictEquals(
    cutAround(line, 1000, 100),
    `[975 characters cut] …${"a".repeat(25)}MATCH${"b".repeat(70)}… [line cut: 930 more characters]`,
  );
  assertStrictEquals(cutAround(line, 0, 100), `${"a".repeat(100)}… [line cut: 1905 more characters]`);
  assertStrictEquals(cutAround(line, 2004, 100), `[1905 characters cut] …${"b".repeat(100)}`);
});

Deno.test("cutAround() never splits a surrogate pair at either edge of the window", () => {
  const line = "😀".repeat(100);
  const cut = cutAround(line, 101, 20);
  assert(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(cut), cut);
});
