import { assertEquals } from "../../support/assert.ts";
import { comparePaths } from "../../../src/tools/search/path_order.ts";

Deno.test("comparePaths() orders names by code point, as ripgrep sorts bytes", () => {
  const names = ["b", "a-c", "a", "a c", "a.log", "\u{1F600}", "\uFF21", "B"];
  assertEquals(names.sort(comparePaths), ["B", "a", "a c", "a-c", "a.log", "b", "\uFF21", "\u{1F600}"]);
});

Deno.test("comparePaths() orders paths directory by directory, as the walk and rg --sort path list them", () => {
  const paths = ["a.log", "a-c/x.txt", "a/b.txt", "a c.txt", "B/z", "a/b/c.txt", "a/\u{1F600}", "a/\uFF21"];
  assertEquals(paths.sort(comparePaths), [
    "B/z",
    "a/b/c.txt",
    "a/b.txt",
    "a/\uFF21",
    "a/\u{1F600}",
    "a c.txt",
    "a-c/x.txt",
    "a.log",
  ]);
});
