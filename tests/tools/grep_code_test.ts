import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { grepCode, type GrepCodeArgs, grepCodeTool } from "../../src/tools/grep_code.ts";
import { type ToolContext, ToolError } from "../../src/tools/tool.ts";
import { sh, tempProject } from "./_helpers.ts";
import { runUnderTernFlags } from "./shell/_sandbox_driver.ts";
import { testNeeding, whyMissing } from "../support/requires.ts";

/** The engines to compare: ripgrep only where it is installed (elsewhere tern uses the built-in search). */
const ENGINES = whyMissing("rg") === null ? ["ripgrep", "builtin"] as const : ["builtin"] as const;
if (ENGINES.length === 1) {
  console.log("grep_code tests: rg is not installed, so only the built-in search is checked");
}

/** Runs grep_code with each engine; asserts they agree and returns the common answer (or error text). */
async function both(args: GrepCodeArgs, ctx: ToolContext): Promise<string> {
  const [first, ...others] = await Promise.all(ENGINES.map((engine) => outcome(args, ctx, engine)));
  for (const other of others) {
    assertStrictEquals(first, other, `ripgrep and the built-in search differ for ${JSON.stringify(args)}`);
  }
  return first;
}

/** The output, or "ERROR: message" for a ToolError (the form the model reads). */
async function outcome(
  args: GrepCodeArgs,
  ctx: ToolContext,
  engine: (typeof ENGINES)[number],
): Promise<string> {
  try {
    return await grepCode(args, ctx, engine);
  } catch (error) {
    if (error instanceof ToolError) return `ERROR: ${error.message}`;
    throw error;
  }
}

/**
 * Builds the shared fixture tree: ordinary code, ignored files, secrets, binaries and hostile entries. The
 * returned listener keeps `src/socket` in place (closing it removes the socket file); dispose it at the end.
 */
async function fixture(root: string, outside: string): Promise<Disposable> {
  const files: Record<string, string> = {
    ".gitignore": "*.log\nbuild/\n",
    "src/.gitignore": "gen/\n",
    "src/main.ts":
      "import x from 'y';\n// TODO: first\nconst a = 1;\nconst b = 2;\n// todo: lower\nexport {};\n",
    "src/util.ts": "export const word = 'a.b';\nconst words = 'axb';\n// TODO second\n",
    "src/crlf.txt": "line end\r\nTODO crlf\r\n",
    "src/unicode.txt": "café TODO ünïcode 😀 TODO\n",
    "src/gen/generated.ts": "// TODO generated\n",
    "docs/readme.md": "# TODO docs\n\nsome text\n",
    "debug.log": "TODO log\n",
    "src/nested.log": "TODO ignored by the root .gitignore\n",
    "build/out.js": "// TODO build\n",
    "node_modules/pkg/index.js": "// TODO dependency\n",
    ".tern/tool-outputs/old.txt": "TODO spilled\n",
    ".git/config": "TODO git\n",
    ".env": "TODO_API_KEY=sk-secret-value\n",
    ".env.local": "TODO=sk-local-secret\n",
    ".env.example": "TODO_API_KEY=put-your-key-here\n",
    ".github/ci.yml": "# TODO ci\n",
  };
  for (const [name, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, name), content);
  }
  await Deno.writeFile(join(root, "src/binary.bin"), new TextEncoder().encode("TODO\0binary\n"));
  await Deno.writeFile(
    join(root, "src/latin1.txt"),
    new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x20, 0xe9, 0x0a]),
  );
  await Deno.symlink("/etc/passwd", join(root, "passwd"));
  await Deno.symlink(outside, join(root, "outside-dir"));
  await Deno.symlink("/dev/zero", join(root, "zero"));
  await Deno.symlink("loop-b", join(root, "loop-a"));
  await Deno.symlink("loop-a", join(root, "loop-b"));
  await Deno.symlink("src/main.ts", join(root, "main-link.ts"));
  await sh("mkfifo src/fifo", root);
  const socket = Deno.listen({ transport: "unix", path: join(root, "src/socket") });
  return { [Symbol.dispose]: () => socket.close() };
}

Deno.test("grepCode() finds matches in ripgrep's format, skipping ignored, skipped, secret and special files", async () => {
  await using p = await tempProject();
  using _socket = await fixture(p.root, p.outside);
  assertStrictEquals(
    await both({ pattern: "TODO" }, p.ctx),
    [
      ".env.example:1:TODO_API_KEY=put-your-key-here",
      ".github/ci.yml:1:# TODO ci",
      "docs/readme.md:1:# TODO docs",
      "src/crlf.txt:2:TODO crlf",
      "src/main.ts:2:// TODO: first",
      "src/unicode.txt:1:café TODO ünïcode 😀 TODO",
      "src/util.ts:3:// TODO second",
      "[7 matches in 7 files]",
    ].join("\n"),
  );
});

Deno.test("grepCode() gives the same answer with ripgrep and with the built-in search", async () => {
  await using p = await tempProject();
  using _socket = await fixture(p.root, p.outside);
  const table: GrepCodeArgs[] = [
    { pattern: "todo", case_sensitive: false },
    { pattern: "TODO", context_lines: 2 },
    { pattern: "const", context_lines: 1 },
    { pattern: "TODO", glob: "*.ts" },
    { pattern: "TODO", glob: "!*.md" },
    { pattern: "TODO", glob: "src/**" },
    { pattern: "TODO", glob: "*.{md,yml}" },
    { pattern: "TODO", glob: "!src/" },
    { pattern: "TODO", path: "src" },
    { pattern: "TODO", path: "src/main.ts" },
    { pattern: "TODO", path: "build" },
    { pattern: "TODO", path: "node_modules" },
    { pattern: "TODO", path: ".tern/tool-outputs/old.txt" },
    { pattern: "a.b", literal: true },
    { pattern: "a.b" },
    { pattern: "w[o]rds?\\b" },
    { pattern: "^$" },
    { pattern: "end$" },
    { pattern: "é|😀" },
    { pattern: "TODO", max_results: 3 },
    { pattern: "TODO", max_results: 2, context_lines: 1 },
    { pattern: "const", max_results: 2, context_lines: 3 },
    { pattern: "(?:TO)+DO:?\\s+[a-z]+" },
    { pattern: "no such text anywhere" },
  ];
  for (const args of table) {
    const answer = await both(args, p.ctx);
    for (const hidden of ["secret", "generated", "nested.log"]) assert(!answer.includes(hidden), answer);
  }
});

Deno.test("grepCode() shows context lines as path-line-text and separates groups with --", async () => {
  await using p = await tempProject();
  using _socket = await fixture(p.root, p.outside);
  assertStrictEquals(
    await both({ pattern: "TODO", path: "src/main.ts", context_lines: 1 }, p.ctx),
    "src/main.ts-1-import x from 'y';\nsrc/main.ts:2:// TODO: first\nsrc/main.ts-3-const a = 1;\n" +
      "[1 match in 1 file]",
  );
  assertStrictEquals(
    await both({ pattern: "^const [abw]", path: "src", context_lines: 1 }, p.ctx),
    "src/main.ts-2-// TODO: first\nsrc/main.ts:3:const a = 1;\nsrc/main.ts:4:const b = 2;\n" +
      "src/main.ts-5-// todo: lower\n--\nsrc/util.ts-1-export const word = 'a.b';\n" +
      "src/util.ts:2:const words = 'axb';\nsrc/util.ts-3-// TODO second\n[3 matches in 2 files]",
  );
});

Deno.test("grepCode() caps matches and says the output is partial and how to narrow it", async () => {
  await using p = await tempProject();
  const many = Array.from({ length: 150 }, (_, i) => `match ${i}`).join("\n");
  await Deno.writeTextFile(join(p.root, "many.txt"), many);
  await Deno.writeTextFile(join(p.root, "three.txt"), "match a\nmatch b\nmatch c\n");
  const capped = await both({ pattern: "match" }, p.ctx);
  assertStrictEquals(capped.split("\n").filter((line) => line.startsWith("many.txt:")).length, 100);
  assertMatch(capped, /\[partial: showing the first 100 matches in 1 file; more matches exist\. Narrow/);
  assertMatch(
    capped,
    /path \(a subdirectory or file\), glob \(e\.g\. "\*\.ts"\) or a more specific pattern/,
  );
  const exact = await both({ pattern: "match", path: "three.txt", max_results: 3 }, p.ctx);
  assertStrictEquals(
    exact,
    "three.txt:1:match a\nthree.txt:2:match b\nthree.txt:3:match c\n[3 matches in 1 file]",
  );
  const one = await both({ pattern: "match b" }, p.ctx);
  assertStrictEquals(one, "three.txt:2:match b\n[1 match in 1 file]");
  const none = await both({ pattern: "nothing" }, p.ctx);
  assertMatch(none, /^No matches for "nothing" in the project \(case_sensitive: false ignores letter case;/);
});

Deno.test("grepCode() lists files in path order with both engines, whether or not the cap is reached", async () => {
  await using p = await tempProject();
  // Names whose order tells a per-directory walk ("a/" before "a c") from plain string order, in enough
  // directories that an unsorted, multi-threaded rg prints them out of order.
  const names = [
    "a/b.txt",
    "a c.txt",
    "a-c/x.txt",
    "a.log.txt",
    "Z.txt",
    "é.txt",
    "\u{1F600}.txt",
    "\uFF21.txt",
  ];
  const dirs = Array.from({ length: 30 }, (_, d) => `d${String(d).padStart(2, "0")}`);
  for (const dir of dirs) {
    for (const name of names) {
      await Deno.mkdir(join(p.root, dir, name, ".."), { recursive: true });
      await Deno.writeTextFile(join(p.root, dir, name), "before\nhit one\nbetween\nhit two\nafter\n");
    }
    // Files rg reports but the built-in search skips, among the others: they must not shift the order.
    await Deno.writeTextFile(join(p.root, dir, ".env"), "hit=secret\n");
    await Deno.writeTextFile(join(p.root, dir, "b.bin"), "hit\0binary\n");
    await Deno.writeFile(
      join(p.root, dir, "latin1.txt"),
      new Uint8Array([0x68, 0x69, 0x74, 0x20, 0xe9, 0x0a]),
    );
  }
  await Deno.writeTextFile(join(p.root, "d07/.gitignore"), "a c.txt\n");
  const all = await both({ pattern: "hit", max_results: 1000 }, p.ctx);
  const lines = all.split("\n");
  assertStrictEquals(lines.pop(), "[478 matches in 239 files]");
  const order = [
    "Z.txt",
    "a/b.txt",
    "a c.txt",
    "a-c/x.txt",
    "a.log.txt",
    "é.txt",
    "\uFF21.txt",
    "\u{1F600}.txt",
  ];
  const shown = (dir: string) => dir === "d07" ? order.filter((name) => name !== "a c.txt") : order;
  assertEquals(
    lines,
    dirs.flatMap((dir) =>
      shown(dir).flatMap((name) => [`${dir}/${name}:2:hit one`, `${dir}/${name}:4:hit two`])
    ),
  );
  for (const max of [478, 477, 100, 7]) {
    const answer = (await both({ pattern: "hit", max_results: max }, p.ctx)).split("\n");
    assertEquals(answer.slice(0, -1), lines.slice(0, max), `max_results ${max}`);
  }
  const context = await both({ pattern: "hit", max_results: 3, context_lines: 1 }, p.ctx);
  assertMatch(
    context,
    /^d00\/Z\.txt-1-before\n.*\nd00\/a\/b\.txt:2:hit one\nd00\/a\/b\.txt-3-between\n\[partial/s,
  );
});

Deno.test("grepCode() gives whole files in order when their long lines are more than the search holds at once", async () => {
  await using p = await tempProject();
  const long = (i: number) => `hit ${i} ${"x".repeat(700_000)}`;
  // 14 lines of 700,000 characters: more than an unsorted run keeps (8 MB) and than is read ahead (1 MB).
  await Deno.writeTextFile(
    join(p.root, "b-long.txt"),
    Array.from({ length: 14 }, (_, i) => long(i)).join("\n"),
  );
  await Deno.writeTextFile(join(p.root, "a-short.txt"), "hit a\n");
  await Deno.writeTextFile(join(p.root, "c-short.txt"), "hit c\n");
  const answer = (await both({ pattern: "hit \\d+|hit [ac]" }, p.ctx)).split("\n");
  assertStrictEquals(answer.length, 17);
  assertStrictEquals(answer[0], "a-short.txt:1:hit a");
  assertEquals(answer.slice(1, 15).map((line) => line.slice(0, line.indexOf(" x"))), [
    ...Array.from({ length: 14 }, (_, i) => `b-long.txt:${i + 1}:hit ${i}`),
  ]);
  assertEquals(answer.slice(15), ["c-short.txt:1:hit c", "[16 matches in 3 files]"]);
});

Deno.test("grepCode() cuts a 10 MB single line to a window around the match, and skips files over 10 MB", async () => {
  await using p = await tempProject();
  const line = `${"x".repeat(5_000_000)}NEEDLE${"y".repeat(4_999_990)}`;
  await Deno.writeTextFile(join(p.root, "one-line.txt"), line);
  await sh("truncate -s 11M huge.txt && printf 'NEEDLE\\n' >> huge.txt", p.root);
  const answer = await both({ pattern: "NEEDLE" }, p.ctx);
  assert(answer.length < 600, `${answer.length} characters`);
  assertMatch(
    answer,
    /^one-line\.txt:1:\[4999925 characters cut\] …x{75}NEEDLEy{219}… \[line cut: 4999771 more characters\]\n\[1 match in 1 file\]$/,
  );
});

Deno.test("grepCode() skips binary and Latin-1 files in a tree, and says so for one named explicitly", async () => {
  await using p = await tempProject();
  using _socket = await fixture(p.root, p.outside);
  assertStrictEquals(
    await both({ pattern: "binary|TODO é", path: "src" }, p.ctx),
    'No matches for "binary|TODO é" in "src" (case_sensitive: false ignores letter case; files ignored by .gitignore, binary files and .env files are not searched).',
  );
  assertMatch(
    await both({ pattern: "TODO", path: "src/binary.bin" }, p.ctx),
    /^ERROR: grep_code: "src\/binary\.bin" is a binary file/,
  );
  assertMatch(
    await both({ pattern: "TODO", path: "src/latin1.txt" }, p.ctx),
    /is a binary file \(not UTF-8 text\)/,
  );
});

Deno.test("grepCode() refuses a FIFO, a socket and special links by name, and never hangs on them in a tree", async () => {
  await using p = await tempProject();
  using _socket = await fixture(p.root, p.outside);
  assertMatch(await both({ pattern: "x", path: "src/fifo" }, p.ctx), /not a regular file \(it is a FIFO/);
  assertMatch(
    await both({ pattern: "x", path: "src/socket" }, p.ctx),
    /not a regular file \(it is a socket\)/,
  );
  assertMatch(await both({ pattern: "x", path: "loop-a" }, p.ctx), /too many levels of symbolic links/);
  for (
    const path of [
      "zero",
      "passwd",
      "outside-dir",
      "outside-dir/secret.txt",
      "../outside",
      "/etc",
      "../proj-evil",
    ]
  ) {
    const answer = await both({ pattern: "root|secret", path }, p.ctx);
    assertMatch(answer, /^ERROR: .*outside the project root/, path);
    assert(!answer.includes(p.outside) && !answer.includes("/etc/"), answer);
  }
  // In the tree: the FIFO and socket are skipped, links not followed, nothing outside is read.
  assertMatch(await both({ pattern: "root:|outside secret|evil secret" }, p.ctx), /^No matches/);
});

Deno.test("grepCode() never shows .env contents: skipped in a tree, refused by name; .env.example is searched", async () => {
  await using p = await tempProject();
  using _socket = await fixture(p.root, p.outside);
  await Deno.symlink(".env", join(p.root, "innocent.txt"));
  const tree = await both({ pattern: "sk-|API_KEY" }, p.ctx);
  assertStrictEquals(tree, ".env.example:1:TODO_API_KEY=put-your-key-here\n[1 match in 1 file]");
  for (const path of [".env", ".env.local", "innocent.txt"]) {
    const answer = await both({ pattern: "sk-", path }, p.ctx);
    assertMatch(
      answer,
      /^ERROR: ".+": refused: \.env files hold secrets \(API keys\), so tern does not read them/,
    );
    assertMatch(answer, /they can paste the needed part into the chat/);
    assert(!answer.includes("sk-"), answer);
  }
});

Deno.test("grepCode() words an invalid regex and a multi-line pattern for the model, with both engines", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "call(x)\n");
  for (const engine of ENGINES) {
    const bad = await outcome({ pattern: "call(" }, p.ctx, engine);
    assertMatch(bad, /^ERROR: grep_code: field "pattern" is not a valid regular expression \(.+\)\. Escape/);
    assertMatch(bad, /or send literal: true to search for the text as is\.$/);
    const lines = await outcome({ pattern: "a\\nb" }, p.ctx, engine);
    assertMatch(lines, /^ERROR: grep_code: field "pattern" contains a line break/);
  }
  assertStrictEquals(
    await both({ pattern: "call(", literal: true }, p.ctx),
    "a.txt:1:call(x)\n[1 match in 1 file]",
  );
  assertMatch(await both({ pattern: "a\\\\nb", literal: true }, p.ctx), /^No matches for/);
});

Deno.test("grepCode() refuses a missing path and stops promptly when cancelled", async () => {
  await using p = await tempProject();
  for (let i = 0; i < 50; i++) await Deno.writeTextFile(join(p.root, `f${i}.txt`), "hit\n".repeat(100));
  assertMatch(await both({ pattern: "x", path: "nope" }, p.ctx), /^ERROR: grep_code: "nope" not found/);
  for (const engine of ENGINES) {
    const controller = new AbortController();
    const ctx = { ...p.ctx, signal: controller.signal };
    const running = outcome({ pattern: "hit", max_results: 1000 }, ctx, engine);
    controller.abort();
    assertStrictEquals(await running, "ERROR: grep_code: cancelled by the user before the search finished.");
  }
});

Deno.test("grep_code tool runs ripgrep when it is on PATH and answers through the registry form", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.ts"), "const needle = 1;\n");
  assertEquals(await grepCodeTool.run({ pattern: "needle" }, p.ctx), {
    content: "a.ts:1:const needle = 1;\n[1 match in 1 file]",
    details: { shown: { from: 1, to: 1, of: 1, unit: "matches", more: false } },
  });
  // A search stopped at its cap says so to the UI too; one without matches has no count.
  await Deno.writeTextFile(join(p.root, "b.ts"), "needle\nneedle\n");
  const capped = await grepCodeTool.run({ pattern: "needle", max_results: 2 }, p.ctx);
  assertEquals(typeof capped === "object" && capped.details?.shown?.more, true);
  assertEquals(typeof (await grepCodeTool.run({ pattern: "nothing here" }, p.ctx)), "object");
  assertEquals(await grepCodeTool.inspect({ pattern: "needle" }, p.ctx), {
    effect: "read",
    paths: ["."],
    summary: '"needle"',
  });
  assertEquals(
    (await grepCodeTool.inspect({ pattern: "needle", glob: "*.ts", path: "src" }, p.ctx)).summary,
    '"needle" (*.ts) in src',
  );
});

testNeeding(
  ["rg"],
  "grep_code and glob_files run ripgrep, spill and refuse the outside under tern's exact flags",
  async () => {
    await using p = await tempProject();
    await Deno.writeTextFile(join(p.root, "a.ts"), "const NEEDLE = 1;\n");
    await Deno.writeTextFile(join(p.root, "big.txt"), `many matches here ${"-".repeat(50)}\n`.repeat(3000));
    await Deno.symlink("/etc/passwd", join(p.root, "passwd"));
    await Deno.symlink(p.outside, join(p.root, "out"));
    const [rgOnly, glob, spilled, passwd, out, tree] = await runUnderTernFlags(p.root, [
      // "(?i)" is ripgrep syntax that JavaScript rejects: a match proves rg ran under --allow-run=rg.
      ["grep_code", { pattern: "(?i)needle" }],
      ["glob_files", { pattern: "**/*" }],
      ["grep_code", { pattern: "matches", max_results: 1000, context_lines: 2 }],
      ["grep_code", { pattern: "root", path: "passwd" }],
      ["grep_code", { pattern: "secret", path: "out/secret.txt" }],
      ["grep_code", { pattern: "root:|outside secret" }],
    ]);
    assertEquals(rgOnly, { content: "a.ts:1:const NEEDLE = 1;\n[1 match in 1 file]", isError: false });
    assertEquals(glob, { content: "a.ts\nbig.txt\nout (symlink)\npasswd (symlink)", isError: false });
    const saved = /saved in (\.tern\/tool-outputs\/\S+-grep_code-\d+\.txt)\./.exec(spilled.content)?.[1];
    assert(saved, spilled.content.slice(0, 300));
    assertMatch(await Deno.readTextFile(join(p.root, saved)), /^big\.txt:1:many matches here -+\n/);
    for (const refused of [passwd, out]) {
      assertStrictEquals(refused.isError, true);
      assertMatch(refused.content, /outside the project root/);
    }
    assertMatch(tree.content, /^No matches/);
  },
);

Deno.test({
  name:
    "grepCode() skips a device node (a /dev/zero twin) in the tree and refuses it by name (root only: mknod)",
  // mknod needs root; CI containers run tests as root, a developer's machine may not.
  ignore: Deno.uid() !== 0,
  fn: async () => {
    await using p = await tempProject();
    await Deno.writeTextFile(join(p.root, "a.txt"), "zero\n");
    await sh("mknod zero-device c 1 5", p.root);
    assertStrictEquals(await both({ pattern: "zero|\\x00" }, p.ctx), "a.txt:1:zero\n[1 match in 1 file]");
    assertMatch(
      await both({ pattern: "x", path: "zero-device" }, p.ctx),
      /not a regular file \(it is a device\)/,
    );
  },
});

Deno.test("grepCode() skips a 2 GB sparse file in a tree and refuses it by name, with both engines", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "small.txt"), "NEEDLE\n");
  // A sparse file whose tail holds the needle: found only by reading 2 GB, which must never happen.
  await sh("truncate -s 2G huge.log && printf 'NEEDLE\\n' >> huge.log", p.root);
  assertStrictEquals(await both({ pattern: "NEEDLE" }, p.ctx), "small.txt:1:NEEDLE\n[1 match in 1 file]");
  assertMatch(
    await both({ pattern: "NEEDLE", path: "huge.log" }, p.ctx),
    /file is 2048\.0 MB; over the 10 MB limit/,
  );
});
