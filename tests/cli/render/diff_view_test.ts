import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { diffSummary, formatDiffSummary, renderDiff } from "../../../src/cli/render/diff_view.ts";
import { terminalSafe } from "../../../src/cli/render/terminal_safe.ts";
import { loadDiff } from "../../../src/text_diff.ts";

await loadDiff(); // as the edit tools load it before any diff

const GREEN = "\x1b[32m";
const RED = "\x1b[31m";
const CYAN = "\x1b[36m";

Deno.test("renderDiff() colours removed lines red, added lines green and hunk headers cyan", () => {
  const shown = renderDiff("src/a.ts", "one\ntwo\nthree\n", "one\nTWO\nthree\nfour\n", { useColor: true });
  assertStringIncludes(shown, `${RED}-two`);
  assertStringIncludes(shown, `${GREEN}+TWO`);
  assertStringIncludes(shown, `${GREEN}+four`);
  assertStringIncludes(shown, `${CYAN}@@ -1,3 +1,4 @@`);
  assertStringIncludes(shown, "--- a/src/a.ts");
  assertStringIncludes(shown, "+++ b/src/a.ts");
});

Deno.test("renderDiff() without colour is a plain unified diff", () => {
  const shown = renderDiff("a.txt", "one\ntwo\n", "one\n2\n", { useColor: false });
  assertEquals(shown, ["--- a/a.txt", "+++ b/a.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+2"].join("\n"));
  assert(!shown.includes("\x1b"));
});

Deno.test("renderDiff() shows a new file against /dev/null", () => {
  const shown = renderDiff("new.txt", "", "hello\n", { useColor: false, newFile: true });
  assertEquals(shown, ["--- /dev/null", "+++ b/new.txt", "@@ -0,0 +1,1 @@", "+hello"].join("\n"));
});

Deno.test("renderDiff() cuts a long diff and says how many lines it left out", () => {
  const lines = Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join("");
  const shown = renderDiff("big.txt", "", lines, { useColor: false, maxLines: 10 });
  const out = shown.split("\n");
  assertEquals(out.length, 2 + 10 + 1);
  assertEquals(out.at(-1), "… 491 more diff lines not shown");
});

Deno.test("renderDiff() makes escape sequences and carriage returns in content visible", () => {
  const shown = renderDiff("evil.txt", "a\r\n", "a\r\n\x1b[2K\rhidden\r\n", { useColor: false });
  assertStringIncludes(shown, "+␛[2K␍hidden");
  assert(!shown.includes("\x1b"));
  assert(!shown.includes("\r"));
});

Deno.test("renderDiff() shows an existing empty file as a/, not /dev/null", () => {
  assertStringIncludes(renderDiff("empty.txt", "", "x\n", { useColor: false }), "--- a/empty.txt");
});

Deno.test("renderDiff() says so when nothing changes", () => {
  assertStringIncludes(renderDiff("a.txt", "same\n", "same\n", { useColor: false }), "(no changes)");
});

Deno.test("diffSummary() counts added and removed lines", () => {
  assertEquals(diffSummary("a\nb\nc\n", "a\nB\nc\nd\n"), { added: 2, removed: 1 });
  assertEquals(diffSummary("", "x\ny\n"), { added: 2, removed: 0 });
  assertEquals(diffSummary("x\ny\n", ""), { added: 0, removed: 2 });
  assertEquals(diffSummary("same\n", "same\n"), { added: 0, removed: 0 });
  assertEquals(diffSummary("a\r\nb\r\n", "a\r\nc\r\n"), { added: 1, removed: 1 });
});

Deno.test("formatDiffSummary() reads +N −M lines", () => {
  assertEquals(formatDiffSummary({ added: 3, removed: 1 }), "+3 −1 lines");
  assertEquals(formatDiffSummary({ added: 1, removed: 0 }), "+1 −0 line");
  assertEquals(formatDiffSummary({ added: 0, removed: 0 }), "+0 −0 lines");
});

Deno.test("terminalSafe() keeps tabs and newlines and shows every other control character", () => {
  assertEquals(terminalSafe("a\tb\nc"), "a\tb\nc");
  assertEquals(terminalSafe("\x1b]0;title\x07"), "␛]0;title␇");
  assertEquals(terminalSafe("x\x7fy\x9bz"), "x␡y<U+009B>z");
  assertEquals(terminalSafe("abc\u202Edcb"), "abc<U+202E>dcb");
});
