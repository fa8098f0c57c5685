import { assert, assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { mostSimilarRegion } from "../../../src/tools/edit/similar.ts";

const FILE = [
  "function add(a, b) {",
  "  return a + b;",
  "}",
  "",
  "function greet(name) {",
  '  console.log("Hello, " + name);',
  "}",
  "",
].join("\n");

Deno.test("mostSimilarRegion() finds the window of the needle's line count most like it", () => {
  const region = mostSimilarRegion(FILE, 'function greet(nam) {\n    console.log("Hello " + name);\n}\n');
  assertEquals(region && [region.first, region.last], [5, 7]);
  assert(region!.score > 0.8);
});

Deno.test("mostSimilarRegion() ignores indentation and scores identical text 1", () => {
  assertEquals(mostSimilarRegion(FILE, "return a + b;"), { first: 2, last: 2, score: 1 });
});

Deno.test("mostSimilarRegion() shrinks the window to a file shorter than the needle", () => {
  const region = mostSimilarRegion("one\ntwo\n", "one\ntwo\nthree\nfour\n");
  assertEquals(region && [region.first, region.last], [1, 2]);
});

Deno.test("mostSimilarRegion() returns null for an empty file or a blank needle", () => {
  assertStrictEquals(mostSimilarRegion("", "x"), null);
  assertStrictEquals(mostSimilarRegion("x", " \n "), null);
});

Deno.test("mostSimilarRegion() scores unrelated text low", () => {
  assert(mostSimilarRegion("qqqq\nzzzz\n", "hello world")!.score < 0.1);
});
