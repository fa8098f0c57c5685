import { assert, assertEquals } from "../../support/assert.ts";
import { htmlToMarkdown } from "../../../src/tools/web/html.ts";

Deno.test("htmlToMarkdown() reads a fragment and a page without <body>, links absolute, script links dropped", () => {
  assertEquals(
    htmlToMarkdown("<p>Just a <a href='x.html'>fragment</a></p>", "https://a.example/b/c"),
    "Just a [fragment](https://a.example/b/x.html)",
  );
  const page = "<html><head><title>T</title></head><p>No body tag, <a href='javascript:alert(1)'>js</a>.</p>";
  assertEquals(htmlToMarkdown(page, "https://a.example/"), "# T\n\nNo body tag, js.");
});

Deno.test("htmlToMarkdown() resolves links against the page's <base>, and keeps a table without a header", () => {
  const page = `<html><head><base href="/docs/"></head><body><p><a href="intro">Intro</a></p>
<table><tr><td>a</td><td>b</td></tr></table></body></html>`;
  const markdown = htmlToMarkdown(page, "https://a.example/x/y");
  assert(markdown.startsWith("[Intro](https://a.example/docs/intro)"), markdown);
  assert(markdown.includes("| a   | b   |"), markdown);
});
