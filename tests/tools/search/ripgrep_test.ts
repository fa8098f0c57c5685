import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStrictEquals,
} from "../../support/assert.ts";
import { join } from "node:path";
import {
  ripgrepArgs,
  ripgrepAvailable,
  runRipgrep,
  type SearchSpec,
} from "../../../src/tools/search/ripgrep.ts";
import { tempProject } from "../_helpers.ts";
import { testNeeding } from "../../support/requires.ts";

const spec: SearchSpec = { pattern: "hit", literal: false, caseSensitive: true, contextLines: 0, path: "." };

testNeeding(
  ["rg"],
  "ripgrepAvailable() finds rg here (CI installs it) and answers the same every time",
  async () => {
    assertStrictEquals(await ripgrepAvailable(), true);
    assertStrictEquals(await ripgrepAvailable(), true);
  },
);

Deno.test("ripgrepArgs() walks like the built-in walker: no symlinks, hidden files, skip list last", () => {
  const args = ripgrepArgs({ ...spec, glob: "*.ts", path: "-src" });
  for (const flag of ["--no-follow", "--hidden", "--no-require-git", "--no-ignore-parent", "--no-config"]) {
    assert(args.includes(flag), flag);
  }
  // Files over 10 MB are dropped after rg (grep.ts), not by a stat of every file in rg.
  assert(!args.includes("--max-filesize"));
  // The user's glob comes before the skip list, which therefore wins; a path starting with "-" stays a path.
  assert(args.indexOf("*.ts") < args.indexOf("!node_modules"));
  assert(args.includes("!.git") && args.includes("!.tern"));
  assertEquals(args.slice(-4), ["--regexp", "hit", "--", "-src"]);
});

Deno.test("ripgrepArgs() lets rg use every core unless sorted output is asked for", () => {
  assert(!ripgrepArgs(spec).includes("--sort"));
  const sorted = ripgrepArgs(spec, { sorted: true });
  assertEquals(sorted.slice(sorted.indexOf("--sort"), sorted.indexOf("--sort") + 2), ["--sort", "path"]);
});

testNeeding(
  ["rg"],
  "runRipgrep() keeps each file's lines together when rg runs unsorted, as sorted runs do",
  async () => {
    await using p = await tempProject();
    for (let d = 0; d < 20; d++) {
      await Deno.mkdir(join(p.root, `d${d}`));
      for (let f = 0; f < 10; f++) {
        await Deno.writeTextFile(join(p.root, `d${d}/f${f}.txt`), "hit\nmiss\nhit\n".repeat(20));
      }
    }
    const run = async (sorted: boolean) => {
      const files: string[] = [];
      const lines = new Map<string, string[]>();
      for await (
        const event of runRipgrep(p.root, { ...spec, contextLines: 1 }, { signal: p.ctx.signal, sorted })
      ) {
        if ("begin" in event) {
          files.push(event.begin);
          lines.set(event.begin, []);
        } else {
          // Every line belongs to the file that began last.
          assertStrictEquals(event.path, files.at(-1));
          lines.get(event.path)!.push(`${event.kind}:${event.line}`);
        }
      }
      return { files, lines };
    };
    const unsorted = await run(false);
    const sorted = await run(true);
    assertStrictEquals(unsorted.files.length, 200);
    assertEquals(new Set(unsorted.files), new Set(sorted.files));
    assertEquals(unsorted.lines, sorted.lines);
  },
);

testNeeding(
  ["rg"],
  "runRipgrep() yields a file's start, then its lines with the match position in characters",
  async () => {
    await using p = await tempProject();
    await Deno.writeTextFile(join(p.root, "a.txt"), "ünïcode hit\r\nother\n");
    const events = [];
    for await (const event of runRipgrep(p.root, { ...spec, contextLines: 1 }, { signal: p.ctx.signal })) {
      events.push(event);
    }
    assertEquals(events, [
      { begin: "a.txt" },
      { path: "a.txt", kind: "match", line: 1, text: "ünïcode hit", focus: 8 },
      { path: "a.txt", kind: "context", line: 2, text: "other", focus: 0 },
    ]);
  },
);

testNeeding(["rg"], "runRipgrep() kills rg when the consumer stops early or the signal fires", async () => {
  await using p = await tempProject();
  // About 1.5 MB of JSON: far more than the pipe holds, so rg is still writing when it is stopped.
  for (let i = 0; i < 50; i++) await Deno.writeTextFile(join(p.root, `f${i}.txt`), "hit\n".repeat(100));
  let seen = 0;
  for await (const _ of runRipgrep(p.root, spec, { signal: p.ctx.signal })) {
    if (++seen === 3) break;
  }
  assertStrictEquals(seen, 3);
  const controller = new AbortController();
  let after = 0;
  for await (const _ of runRipgrep(p.root, spec, { signal: controller.signal })) {
    controller.abort();
    after++;
  }
  // Nothing more is yielded once the signal fires (and rg is killed: the sanitizers see no process left).
  assertStrictEquals(after, 1);
});

testNeeding(["rg"], "runRipgrep() reports a pattern rg cannot compile, naming what is wrong", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x\n");
  const run = async () => {
    for await (
      const _ of runRipgrep(p.root, { ...spec, pattern: "[z-a]" }, { signal: p.ctx.signal })
    ) { /* none */ }
  };
  assertMatch(
    String(await assertRejects(run)),
    /field "pattern" is not a valid regular expression \(invalid character class range/,
  );
});
