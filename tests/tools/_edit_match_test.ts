import assert from "node:assert/strict";
import { applyEdit, findAll, lineAt } from "../../src/tools/_edit_match.ts";

Deno.test("findAll() counts overlapping occurrences", () => {
  assert.deepEqual(findAll("aaa", "aa"), [0, 1]);
  assert.deepEqual(findAll("abcabc", "bc"), [1, 4]);
  assert.deepEqual(findAll("abc", "x"), []);
});

Deno.test("lineAt() gives 1-based line numbers", () => {
  assert.equal(lineAt("a\nb\nc", 0), 1);
  assert.equal(lineAt("a\nb\nc", 2), 2);
  assert.equal(lineAt("a\nb\nc", 4), 3);
});

Deno.test("applyEdit() reports not found, ambiguity and edits", () => {
  assert.deepEqual(applyEdit("abc", "x", "y", false), { kind: "not_found" });
  assert.deepEqual(applyEdit("x\nx\n", "x", "y", false), { kind: "ambiguous", lines: [1, 2] });
  assert.deepEqual(applyEdit("x\nx\n", "x", "y", true), {
    kind: "edited",
    text: "y\ny\n",
    count: 2,
    added: 2,
    removed: 2,
  });
  assert.deepEqual(applyEdit("a\nb\n", "b\n", "", false), {
    kind: "edited",
    text: "a\n",
    count: 1,
    added: 0,
    removed: 1,
  });
});

Deno.test("applyEdit() keeps CRLF in CRLF files and LF in LF regions of mixed files", () => {
  assert.deepEqual(applyEdit("a\r\nb\r\n", "a\nb", "c\nd", false), {
    kind: "edited",
    text: "c\r\nd\r\n",
    count: 1,
    added: 2,
    removed: 2,
  });
  const mixed = applyEdit("a\r\nb\nc\n", "b\nc", "x\ny", false);
  assert.equal(mixed.kind === "edited" && mixed.text, "a\r\nx\ny\n");
  const single = applyEdit("a\r\nb\r\n", "b", "b1\nb2", false);
  assert.equal(single.kind === "edited" && single.text, "a\r\nb1\r\nb2\r\n");
});
