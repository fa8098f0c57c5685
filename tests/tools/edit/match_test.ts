import { assertEquals, assertMatch, assertStrictEquals } from "../../support/assert.ts";
import {
  applyEdit,
  describeLayer,
  describeMatch,
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
    places: [{ line: 1, column: 1 }, { line: 3, column: 1 }, { line: 4, column: 1 }],
    layer: "exact",
  });
});

Deno.test("applyEdit() counts overlapping matches as ambiguous", () => {
  assertEquals(applyEdit("aaa", "aa", "b", false), {
    kind: "ambiguous",
    places: [{ line: 1, column: 1 }, { line: 1, column: 2 }],
    layer: "exact",
  });
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
    places: [{ line: 1, column: 1 }, { line: 2, column: 1 }],
    layer: "normalised",
  });
  assertEquals(applyEdit("–––\n", "--", "b", false), {
    kind: "ambiguous",
    places: [{ line: 1, column: 1 }, { line: 1, column: 2 }],
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

Deno.test("applyEdit() writes new_text with the file's line ending, whatever the model sent", () => {
  const lf = applyEdit("a\nb\n", "a\r\nb", "x\r\ny", false);
  assertStrictEquals(lf.kind === "edited" && lf.text, "x\ny\n");
  const crlf = applyEdit("a\r\nb\r\n", "a", "x\ny\r\nz", false);
  assertStrictEquals(crlf.kind === "edited" && crlf.text, "x\r\ny\r\nz\r\nb\r\n");
  const all = applyEdit("a\nb\na\nb\n", "a\r\n", "x\r\ny\r\n", true);
  assertStrictEquals(all.kind === "edited" && all.text, "x\ny\nb\nx\ny\nb\n");
  const cr = applyEdit("one\rtwo\r", "two", "2\n2b", false);
  assertStrictEquals(cr.kind === "edited" && cr.text, "one\r2\r2b\r");
});

Deno.test("applyEdit() with replace_all gives each occurrence the ending of its own place", () => {
  const outcome = applyEdit("k\r\nv\nk\nv\n", "k\nv", "K\nV", true);
  assertEquals(outcome.kind === "edited" && [outcome.text, outcome.count], ["K\r\nV\nK\nV\n", 2]);
});

Deno.test("applyEdit() refuses a CRLF copy and an LF copy of the same lines as two places, naming both", () => {
  const text = "one\r\ntwo\r\nmid\none\ntwo\n";
  const places = [{ line: 1, column: 1, endings: "CRLF" }, { line: 4, column: 1, endings: "LF" }];
  assertEquals(applyEdit(text, "one\ntwo", "1\n2", false), { kind: "ambiguous", places, layer: "exact" });
  // The bytes of the CRLF copy are no way around it either.
  assertEquals(applyEdit(text, "one\r\ntwo", "1\n2", false), { kind: "ambiguous", places, layer: "exact" });
  const normalisedPlaces = applyEdit("“q”\r\nx\r\n“q”\nx\n", '"q"\nx', "y", false);
  assertEquals(normalisedPlaces.kind === "ambiguous" && normalisedPlaces.places.map((p) => p.endings), [
    "CRLF",
    "LF",
  ]);
});

Deno.test("applyEdit() tells matches on one line apart by column", () => {
  assertEquals(applyEdit("f(a) + f(a)\n", "f(a)", "g", false), {
    kind: "ambiguous",
    places: [{ line: 1, column: 1 }, { line: 1, column: 8 }],
    layer: "exact",
  });
});

Deno.test("applyEdit() matches a block once indentation is set aside and re-indents new_text", () => {
  const text = "class A {\n  run() {\n    go();\n  }\n}\n";
  assertEquals(applyEdit(text, "run() {\n  go();\n}\n", "run() {\n  stop();\n  go();\n}\n", false), {
    kind: "edited",
    text: "class A {\n  run() {\n    stop();\n    go();\n  }\n}\n",
    count: 1,
    added: 1,
    removed: 0,
    layer: "indentation",
    shift: { from: "", to: "  " },
  });
  const deeper = applyEdit(text, "      go();\n    }", "      went();\n    }", false);
  assertEquals(deeper.kind === "edited" && [deeper.text, deeper.layer], [
    "class A {\n  run() {\n    went();\n  }\n}\n",
    "indentation",
  ]);
});

Deno.test("applyEdit() applies the indentation layer only to exactly one block", () => {
  const text =
    "if (a) {\n  x();\n}\nfunction f() {\n  if (a) {\n    x();\n  }\n}\n  if (a) {\n    x();\n  }\n";
  const outcome = applyEdit(text, "    if (a) {\n      x();\n    }", "y", false);
  assertEquals(outcome, {
    kind: "ambiguous",
    places: [{ line: 1, column: 1 }, { line: 5, column: 1 }, { line: 9, column: 1 }],
    layer: "indentation",
  });
});

Deno.test("applyEdit() takes no indentation layer for a block that needs a line after it, or tabs for spaces", () => {
  assertEquals(applyEdit("  a\n  b", "a\nb\n", "c\n", false), { kind: "not_found" });
  assertEquals(applyEdit("\ta\n\t\tb\n", "  a\n    b", "c", false), { kind: "not_found" });
});

Deno.test("applyEdit() moves a line indented with spaces onto the file's tab, and refuses what it cannot place", () => {
  const outcome = applyEdit("function f() {\n\tlog(1);\n}\n", "  log(1);", "  log(2);", false);
  assertEquals(outcome.kind === "edited" && [outcome.text, outcome.layer], [
    "function f() {\n\tlog(2);\n}\n",
    "indentation",
  ]);
  // A line of new_text less indented than old_text has no place once spaces become a tab.
  assertEquals(applyEdit("\tlog(1);\n", "  log(1);", "  log(2);\nend();", false), { kind: "not_found" });
});

Deno.test("applyEdit() strips line-number prefixes before setting indentation aside", () => {
  const outcome = applyEdit(
    "def f():\n    a = 1\n    b = 2\n",
    "     2\ta = 1\n     3\tb = 2",
    "a = 3",
    false,
  );
  assertEquals(outcome.kind === "edited" && [outcome.text, outcome.layer], [
    "def f():\n    a = 3\n",
    "numbers+indentation",
  ]);
});

Deno.test("describeMatch() adds the re-indentation to the layer", () => {
  assertStrictEquals(
    describeMatch({ layer: "indentation", shift: { from: "", to: "  " } }),
    "matched once indentation was set aside (new_text re-indented: 2 spaces added to each line)",
  );
  assertStrictEquals(describeMatch({ layer: "exact" }), "");
});
