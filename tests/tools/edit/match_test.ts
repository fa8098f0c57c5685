import { assertEquals, assertMatch, assertStrictEquals } from "../../support/assert.ts";
import {
  applyEdit,
  describeLayer,
  diffSummary,
  findAll,
  lineNumbers,
  stripLineNumbers,
} from "../../../src/tools/edit/match.ts";
import { loadDiff } from "../../../src/text_diff.ts";

await loadDiff(); // as the edit tools load it before any diff

Deno.test("findAll() counts overlapping occurrences", () => {
  assertEquals(findAll("aaa", "aa"), [0, 1]);
  assertEquals(findAll("abcabc", "bc"), [1, 4]);
  assertEquals(findAll("abc", "x"), []);
});

Deno.test("lineNumbers() gives 1-based line numbers of ascending indexes in one pass", () => {
  assertEquals(lineNumbers("a\nb\nc", [0, 2, 4]), [1, 2, 3]);
  assertEquals(lineNumbers("a\nb\nc", [1, 1, 3]), [1, 1, 2]);
  assertEquals(lineNumbers("", []), []);
});

Deno.test("applyEdit() reports not found, zero, one and three matches", () => {
  assertEquals(applyEdit("abc", "x", "y", false), { kind: "not_found" });
  assertEquals(applyEdit("", "x", "y", false), { kind: "not_found" });
  assertEquals(applyEdit("a\nb\n", "b\n", "", false), {
    kind: "edited",
    text: "a\n",
    count: 1,
    added: 0,
    removed: 1,
    layer: "exact",
  });
  assertEquals(applyEdit("x\ny\nx\nx\n", "x", "z", false), {
    kind: "ambiguous",
    lines: [1, 3, 4],
    layer: "exact",
  });
});

Deno.test("applyEdit() counts overlapping matches as ambiguous", () => {
  assertEquals(applyEdit("aaa", "aa", "b", false), { kind: "ambiguous", lines: [1, 1], layer: "exact" });
});

Deno.test("applyEdit() with replace_all replaces every non-overlapping exact occurrence", () => {
  assertEquals(applyEdit("x\nx\n", "x", "y", true), {
    kind: "edited",
    text: "y\ny\n",
    count: 2,
    added: 2,
    removed: 2,
    layer: "exact",
  });
  const overlap = applyEdit("aaaa a", "aa", "b", true);
  assertStrictEquals(overlap.kind === "edited" && overlap.text, "bb a");
});

Deno.test("applyEdit() with replace_all never normalises", () => {
  assertEquals(applyEdit("say “hi”\nsay “hi”\n", 'say "hi"', "x", true), { kind: "not_found" });
});

Deno.test("applyEdit() counts the diff summary as a line diff of the replaced text", () => {
  const outcome = applyEdit("a\nb\nc\nd\n", "a\nb\nc\n", "a\nB\nc\n", false);
  assertEquals(outcome.kind === "edited" && [outcome.added, outcome.removed], [1, 1]);
});

Deno.test("applyEdit() keeps CRLF in CRLF files and LF in LF regions of mixed files", () => {
  assertEquals(applyEdit("a\r\nb\r\n", "a\nb", "c\nd", false), {
    kind: "edited",
    text: "c\r\nd\r\n",
    count: 1,
    added: 2,
    removed: 2,
    layer: "exact",
  });
  const mixed = applyEdit("a\r\nb\nc\n", "b\nc", "x\ny", false);
  assertStrictEquals(mixed.kind === "edited" && mixed.text, "a\r\nx\ny\n");
  const single = applyEdit("a\r\nb\r\n", "b", "b1\nb2", false);
  assertStrictEquals(single.kind === "edited" && single.text, "a\r\nb1\r\nb2\r\n");
});

Deno.test("applyEdit() matches curly quotes, dashes and special spaces after normalising, keeping the rest", () => {
  const text = "before\nsay “hello” — it’s\u00A0ok\nafter\n";
  assertEquals(applyEdit(text, 'say "hello" - it\'s ok', 'say "bye"', false), {
    kind: "edited",
    text: 'before\nsay "bye"\nafter\n',
    count: 1,
    added: 1,
    removed: 1,
    layer: "normalised",
  });
  for (const dash of "‐‑‒–—―−﹘﹣－") {
    const outcome = applyEdit(`a ${dash} b\n`, "a - b", "c", false);
    assertStrictEquals(
      outcome.kind === "edited" && outcome.text,
      "c\n",
      `U+${dash.codePointAt(0)!.toString(16)}`,
    );
  }
  for (const space of "\u00A0\u2002\u2009\u202F\u3000") {
    const outcome = applyEdit(`x${space}=${space}1\n`, "x = 1", "y", false);
    assertStrictEquals(
      outcome.kind === "edited" && outcome.text,
      "y\n",
      `U+${space.codePointAt(0)!.toString(16)}`,
    );
  }
});

Deno.test("applyEdit() ignores trailing whitespace on both sides when normalising", () => {
  const outcome = applyEdit("if (x) {  \n  go();\t\n}\n", "if (x) {\n  go();   \n}", "done", false);
  assertEquals(outcome.kind === "edited" && [outcome.text, outcome.layer], ["done\n", "normalised"]);
});

Deno.test("applyEdit() does not let a trailing space in old_text match inside a word", () => {
  assertEquals(applyEdit("foobar\n", "foo ", "x", false), { kind: "not_found" });
  const atEnd = applyEdit("foo\n", "foo ", "x", false);
  assertStrictEquals(atEnd.kind === "edited" && atEnd.text, "x\n");
});

Deno.test("applyEdit() normalises CRLF files per line and writes CRLF back", () => {
  const outcome = applyEdit("one\r\n“two”\r\nthree\r\n", 'one\n"two"\n', "1\n2\n", false);
  assertStrictEquals(outcome.kind === "edited" && outcome.text, "1\r\n2\r\nthree\r\n");
});

Deno.test("applyEdit() matches composed and decomposed accents alike", () => {
  const outcome = applyEdit("cafe\u0301 time\n", "caf\u00e9 time", "tea", false);
  assertStrictEquals(outcome.kind === "edited" && outcome.text, "tea\n");
});

Deno.test("applyEdit() refuses a normalised match that would cut a ligature in half", () => {
  assertEquals(applyEdit("the ﬁle is here\n", "ile is", "x", false), {
    kind: "splits_character",
    line: 1,
    character: "ﬁ",
    layer: "normalised",
  });
  const whole = applyEdit("the ﬁle is here\n", "the file", "a doc", false);
  assertStrictEquals(whole.kind === "edited" && whole.text, "a doc is here\n");
});

Deno.test("applyEdit() counts normalised matches for uniqueness, overlaps included", () => {
  assertEquals(applyEdit("“a”\n“a”\n", '"a"', "b", false), {
    kind: "ambiguous",
    lines: [1, 2],
    layer: "normalised",
  });
  assertEquals(applyEdit("–––\n", "--", "b", false), {
    kind: "ambiguous",
    lines: [1, 1],
    layer: "normalised",
  });
});

Deno.test("applyEdit() tries exact matching first and does not normalise when it finds something", () => {
  const outcome = applyEdit('“a”\n"a"\n', '"a"', "b", false);
  assertStrictEquals(outcome.kind === "edited" && outcome.text, "“a”\nb\n");
});

Deno.test("applyEdit() strips read_file line-number prefixes when every line of old_text has one", () => {
  const text = "x = 1\n\n  y = 2\n";
  const outcome = applyEdit(
    text,
    "     1\tx = 1\n     2\t\n     3\t  y = 2",
    "     1\tx = 10\n  y = 20",
    false,
  );
  assertEquals(outcome, {
    kind: "edited",
    text: "x = 10\n  y = 20\n",
    count: 1,
    added: 2,
    removed: 3,
    layer: "numbers",
  });
  assertEquals(applyEdit(text, "     1\tx = 1\n  y = 2", "z", false), { kind: "not_found" });
  const both = applyEdit("say “hi”\n", '     1\tsay "hi"', "     1\tbye", false);
  assertEquals(both.kind === "edited" && [both.text, both.layer], ["bye\n", "numbers+normalised"]);
});

Deno.test("stripLineNumbers() accepts only read_file's exact prefix format", () => {
  assertEquals(stripLineNumbers("    12\tab\n\n1234567\tcd", "    12\tAB\nnew"), ["ab\n\ncd", "AB\nnew"]);
  assertStrictEquals(stripLineNumbers("12\tab", ""), null);
  assertStrictEquals(stripLineNumbers("   12 ab", ""), null);
  assertStrictEquals(stripLineNumbers("\n\n", ""), null);
});

Deno.test("describeLayer() says nothing for exact matches and names the normalisation otherwise", () => {
  assertStrictEquals(describeLayer("exact"), "");
  assertStrictEquals(describeLayer("normalised"), "matched after normalising whitespace/quotes/dashes");
  assertMatch(describeLayer("numbers+normalised"), /line-number prefixes and normalising/);
});

Deno.test("diffSummary() diffs only the changed middle of two texts", () => {
  const fallback = { added: 99, removed: 99 };
  assertEquals(diffSummary("a\nb\nc\nd\n", "a\nB\nB2\nd\n", fallback), { added: 2, removed: 2 });
  assertEquals(diffSummary("a\nb\n", "a\nb\nc\n", fallback), { added: 1, removed: 0 });
  assertEquals(diffSummary("x", "y", fallback), { added: 1, removed: 1 });
  assertEquals(diffSummary("same\n", "same\n", fallback), { added: 0, removed: 0 });
});

Deno.test("diffSummary() falls back when the changed middle is too large to diff", () => {
  const before = `a\n${"line\n".repeat(5000)}b\n`;
  const after = `A\n${"line\n".repeat(5000)}B\n`;
  assertEquals(diffSummary(before, after, { added: 2, removed: 2 }), { added: 2, removed: 2 });
});
