import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { fileURLToPath } from "node:url";

const PROJECT = fileURLToPath(new URL("../../../", import.meta.url));

/** The answer of the REPL test that failed with Deno's `__proto__` notice (issue 22): markdown with code. */
const ANSWER = [
  "# Findings",
  "",
  "The **parser** is fine; `lexer()` is not.",
  "",
  "- first point",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "That is all.",
].join("\n");

Deno.test("a page converted to markdown, then that answer rendered, leave no __proto__ mark for a later crash", async () => {
  // A crash after anything assigned Object.prototype.__proto__ ends with Deno's notice blaming it; domino
  // (turndown's parser) made that assignment, so every later failure in the process carried the notice.
  const script = `
    import { htmlToMarkdown } from "${PROJECT}src/tools/web/html.ts";
    import { MarkdownStream } from "${PROJECT}src/cli/render/markdown.ts";
    import { loadHighlighter } from "${PROJECT}src/cli/render/highlight.ts";
    console.log(htmlToMarkdown("<h1>Title</h1><p>Some <b>bold</b> text.</p>"));
    await loadHighlighter();
    const stream = new MarkdownStream({ width: 80, color: true });
    console.log(stream.push(${JSON.stringify(ANSWER + "\n")}) + stream.end());
    throw new Error("a crash after both");
  `;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", `${PROJECT}deno.json`, script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const [stdout, stderr] = [output.stdout, output.stderr].map((bytes) => new TextDecoder().decode(bytes));
  assertEquals(output.code, 1, stderr);
  assertStringIncludes(stdout, "# Title\n\nSome **bold** text.");
  assertStringIncludes(stdout, "\x1b[36m•\x1b[39m first point");
  assertStringIncludes(stdout, "\x1b[35mconst\x1b[39m answer = \x1b[33m42\x1b[39m;");
  assertStringIncludes(stderr, "a crash after both");
  assert(!stderr.includes("__proto__"), stderr);
});

Deno.test("loading the converter leaves Deno's own Object.prototype.__proto__ accessor in place", async () => {
  const before = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");
  const { htmlToMarkdown } = await import("../../../src/tools/web/html.ts");
  assertEquals(htmlToMarkdown("<p>x</p>"), "x");
  // The same getter and setter functions as before the load (a write here would itself mark the process).
  assertEquals(Object.getOwnPropertyDescriptor(Object.prototype, "__proto__"), before);
});

Deno.test("htmlToMarkdown() reads a fragment and a page without <body>, links absolute, script links dropped", async () => {
  const { htmlToMarkdown } = await import("../../../src/tools/web/html.ts");
  assertEquals(
    htmlToMarkdown("<p>Just a <a href='x.html'>fragment</a></p>", "https://a.example/b/c"),
    "Just a [fragment](https://a.example/b/x.html)",
  );
  const page = "<html><head><title>T</title></head><p>No body tag, <a href='javascript:alert(1)'>js</a>.</p>";
  assertEquals(htmlToMarkdown(page, "https://a.example/"), "# T\n\nNo body tag, js.");
});

Deno.test("htmlToMarkdown() resolves links against the page's <base>, and keeps a table without a header", async () => {
  const { htmlToMarkdown } = await import("../../../src/tools/web/html.ts");
  const page = `<html><head><base href="/docs/"></head><body><p><a href="intro">Intro</a></p>
<table><tr><td>a</td><td>b</td></tr></table></body></html>`;
  const markdown = htmlToMarkdown(page, "https://a.example/x/y");
  assert(markdown.startsWith("[Intro](https://a.example/docs/intro)"), markdown);
  assert(markdown.includes("| a   | b   |"), markdown);
});
