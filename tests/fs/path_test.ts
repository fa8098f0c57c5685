/** src/fs/path.ts gives node:path's (posix) answer for every input: checked on generated paths. */
import { assertEquals } from "../support/assert.ts";
import * as node from "node:path";
import * as own from "../../src/fs/path.ts";

/** Pieces that exercise every branch: roots, repeated slashes, dots, dot-dots, dotted names, suffixes. */
const PIECES = ["/", "//", ".", "..", "...", "a", "b.c", ".d", "e.", "f..g", "", "x.ts", ".ts", "ts"];

/** A deterministic pseudo-random sequence, so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function paths(count: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const parts = Array.from(
      { length: Math.floor(next() * 6) },
      () => PIECES[Math.floor(next() * PIECES.length)],
    );
    return parts.join(next() < 0.5 ? "/" : "");
  });
}

Deno.test("path functions agree with node:path on generated paths", () => {
  const list = paths(4000, 7);
  for (const [i, p] of list.entries()) {
    const q = list[(i * 31 + 5) % list.length];
    for (const name of ["normalize", "dirname", "basename", "extname", "isAbsolute", "resolve"] as const) {
      assertEquals(
        (own[name] as (p: string) => unknown)(p),
        (node[name] as (p: string) => unknown)(p),
        `${name}(${p})`,
      );
    }
    assertEquals(own.join(p, q), node.join(p, q), `join(${p}, ${q})`);
    assertEquals(own.join(p, q, p), node.join(p, q, p), `join(${p}, ${q}, ${p})`);
    assertEquals(own.resolve(p, q), node.resolve(p, q), `resolve(${p}, ${q})`);
    assertEquals(own.relative(p, q), node.relative(p, q), `relative(${p}, ${q})`);
    assertEquals(own.basename(p, q), node.basename(p, q), `basename(${p}, ${q})`);
  }
});

Deno.test("path functions agree with node:path on the edge cases", () => {
  const cases = [
    "",
    "/",
    "//",
    "///",
    ".",
    "..",
    "/..",
    "a/..",
    "../a",
    "/a/b/",
    "a//b",
    "./a",
    "a/./b",
    ".x",
  ];
  for (const p of cases) {
    for (const q of cases) {
      assertEquals(own.join(p, q), node.join(p, q), `join(${p}, ${q})`);
      assertEquals(own.relative(p, q), node.relative(p, q), `relative(${p}, ${q})`);
      assertEquals(own.basename(p, q), node.basename(p, q), `basename(${p}, ${q})`);
    }
    assertEquals(own.dirname(p), node.dirname(p), `dirname(${p})`);
    assertEquals(own.extname(p), node.extname(p), `extname(${p})`);
  }
  assertEquals(own.join(), node.join());
  assertEquals(own.resolve(), node.resolve());
  assertEquals(own.sep, node.sep);
  assertEquals(own.posix.normalize("a//b/../c"), node.posix.normalize("a//b/../c"));
});
