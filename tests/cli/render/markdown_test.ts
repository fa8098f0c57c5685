import { assert, assertEquals } from "../../support/assert.ts";
import { MarkdownStream, renderMarkdown } from "../../../src/cli/render/markdown.ts";
import {
  highlightCode,
  highlighterReady,
  htmlToAnsi,
  loadHighlighter,
} from "../../../src/cli/render/highlight.ts";

const plain = { width: 40, color: false };

Deno.test("renderMarkdown() without colour draws lists, quotes and rules, and keeps heading marks, backticks and fences", () => {
  const text =
    "# Title\n\nSome **bold** and `code` and [docs](https://x.dev).\n\n- one\n- two\n  - nested\n\n" +
    "1. first\n2. second\n\n> quoted\n\n```ts\nconst x = 1;\n```\n\n---\n";
  assertEquals(renderMarkdown(text, plain).split("\n"), [
    "# Title",
    "",
    "Some bold and `code` and docs",
    "(https://x.dev).",
    "",
    "• one",
    "• two",
    "  • nested",
    "",
    "1. first",
    "2. second",
    "",
    "│ quoted",
    "",
    "  ```ts",
    "  const x = 1;",
    "  ```",
    "",
    "────────────────────────────────────────",
    "",
  ]);
});

Deno.test("renderMarkdown() aligns a table, and lists its rows when it is too wide", () => {
  const table = "| name | n |\n|---|--:|\n| a | 1 |\n| bbbb | 22 |\n";
  assertEquals(renderMarkdown(table, plain), "name │  n\n─────┼───\na    │  1\nbbbb │ 22\n");
  const wide = "| key | value |\n|-|-|\n| alpha | a long value that cannot fit |\n";
  assertEquals(
    renderMarkdown(wide, { width: 24, color: false }),
    "• key: alpha\n  value: a long value\n  that cannot fit\n",
  );
});

Deno.test("renderMarkdown() wraps to the width and makes control characters visible", () => {
  const out = renderMarkdown("word ".repeat(12) + "\x1b[31mred\x07", { width: 20, color: true });
  assert(!out.includes("\x1b[31m"), out);
  assert(out.includes("␛[31mred␇"), out);
  for (const line of renderMarkdown("word ".repeat(12), plain).split("\n")) assert(line.length <= 40);
});

Deno.test("MarkdownStream prints each block once the next begins, and the rest at the end", () => {
  const stream = new MarkdownStream(plain);
  assertEquals(stream.push("# Head"), "");
  assertEquals(stream.push("ing\n\nA para"), "# Heading\n");
  assertEquals(stream.push("graph\n"), "");
  assertEquals(stream.push("```py\nx = 1\n"), "\nA paragraph\n");
  assertEquals(stream.push("```\n"), "");
  assertEquals(stream.end(), "\n  ```py\n  x = 1\n  ```\n");
});

Deno.test("highlighterReady() resolves true once the highlighter has loaded, and at once after that", async () => {
  assertEquals(await highlighterReady(), true);
  assertEquals(await highlighterReady(0), true);
  assert(highlightCode("let y = 2;", "js")?.includes("\x1b[35mlet"));
});

Deno.test("highlightCode() colours known languages once loaded; htmlToAnsi() restores the outer colour", async () => {
  await loadHighlighter();
  const code = highlightCode("const x = 1;", "ts") ?? "";
  assert(code.includes("\x1b[35mconst\x1b[39m"), JSON.stringify(code));
  assertEquals(highlightCode("x", "no-such-language"), undefined);
  assertEquals(
    htmlToAnsi('<span class="hljs-string">"a<span class="hljs-subst">${b}</span>&lt;"</span>'),
    '\x1b[32m"a\x1b[39m\x1b[32m${b}\x1b[39m\x1b[32m<"\x1b[39m',
  );
});
