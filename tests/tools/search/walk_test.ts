import { assert, assertEquals, assertRejects } from "../../support/assert.ts";
import { join } from "node:path";
import { GitignoreRules, rulesFor } from "../../../src/tools/search/gitignore_rules.ts";
import { SKIPPED_NAMES, type WalkEntry, walkTree } from "../../../src/tools/search/walk.ts";
import { sh, tempProject } from "../_helpers.ts";
import { RG_WALK_FLAGS } from "../../../src/tools/search/ripgrep.ts";
import { testNeeding } from "../../support/requires.ts";

/** Writes `files` (relative path → content) under `root`, creating directories. */
async function write(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
}

async function walkAll(root: string, start = ".", maxDepth?: number): Promise<string[]> {
  const out: string[] = [];
  const rules = await rulesFor(root, start);
  for await (const batch of walkTree(root, start, rules, { maxDepth })) out.push(...batch.map(show));
  return out;
}

function show(entry: WalkEntry): string {
  return entry.kind === "symlink" ? `${entry.rel}@` : entry.rel;
}

/** Lists files as `rg --files` sees them with the flags grep_code gives it (sorted, same ignore rules). */
async function ripgrepFiles(root: string): Promise<string[]> {
  const globs = SKIPPED_NAMES.flatMap((name) => ["--glob", `!${name}`]);
  const args = [
    "--files",
    ...RG_WALK_FLAGS,
    "--sort",
    "path",
    ...globs,
  ];
  const { stdout } = await new Deno.Command("rg", { args, cwd: root, stdin: "null" }).output();
  return new TextDecoder().decode(stdout).split("\n").filter((line) => line !== "");
}

testNeeding(["rg"], "walkTree() walks depth-first in name order, the order of rg --sort path", async () => {
  await using p = await tempProject();
  await write(p.root, {
    "a/b.txt": "",
    "a c.txt": "",
    "a-c/x.txt": "",
    "a.log": "",
    "z/deep/er/file.ts": "",
    ".hidden/h.txt": "",
    ".github/ci.yml": "",
  });
  const walked = await walkAll(p.root);
  assertEquals(walked, [
    ".github/ci.yml",
    ".hidden/h.txt",
    "a/b.txt",
    "a c.txt",
    "a-c/x.txt",
    "a.log",
    "z/deep/er/file.ts",
  ]);
  assertEquals(walked, await ripgrepFiles(p.root));
});

testNeeding(
  ["rg"],
  "walkTree() honours root and nested .gitignore files, deeper rules winning, like ripgrep",
  async () => {
    await using p = await tempProject();
    await write(p.root, {
      ".gitignore": "*.log\nbuild/\n/top-only.txt\n",
      "keep.txt": "",
      "debug.log": "",
      "top-only.txt": "",
      "build/out.js": "",
      "src/top-only.txt": "",
      "src/.gitignore": "generated/\n!important.log\n",
      "src/important.log": "",
      "src/other.log": "",
      "src/generated/g.ts": "",
      "src/main.ts": "",
    });
    const walked = await walkAll(p.root);
    assertEquals(walked, [
      ".gitignore",
      "keep.txt",
      "src/.gitignore",
      "src/important.log",
      "src/main.ts",
      "src/top-only.txt",
    ]);
    assertEquals(walked, await ripgrepFiles(p.root));
  },
);

Deno.test("walkTree() orders names by code point when a directory holds characters above U+FFFF", async () => {
  await using p = await tempProject();
  // In UTF-16 order the emoji (a surrogate pair) would come before U+FF21; in code point order it is last.
  await write(p.root, {
    "\u{1F600}.ts": "",
    "\uFF21.ts": "",
    "b.ts": "",
    "d/\u{1F600}/x.ts": "",
    "d/\uFF21/x.ts": "",
  });
  assertEquals(await walkAll(p.root), [
    "b.ts",
    "d/\uFF21/x.ts",
    "d/\u{1F600}/x.ts",
    "\uFF21.ts",
    "\u{1F600}.ts",
  ]);
});

Deno.test("walkTree() judges by name alone .gitignore files of bare name patterns, deeper ones still winning", async () => {
  await using p = await tempProject();
  await write(p.root, {
    ".gitignore": "*.log\n*.tmp\nbuild/\n",
    "src/.gitignore": "!keep.log\ncache/\n",
    "a.log": "",
    "a.ts": "",
    "x.tmp/inner.txt": "",
    "build/out.js": "",
    "src/build/out.js": "",
    "src/keep.log": "",
    "src/other.log": "",
    "src/cache/c.txt": "",
    "src/deep/cache/c.txt": "",
    "src/deep/keep.log": "",
    "src/deep/b.tmp": "",
    "src/deep/logs.txt": "",
  });
  const walked = await walkAll(p.root);
  assertEquals(walked, [
    ".gitignore",
    "a.ts",
    "src/.gitignore",
    "src/deep/keep.log",
    "src/deep/logs.txt",
    "src/keep.log",
  ]);
  assertEquals(walked, await ripgrepFiles(p.root));
});

Deno.test("walkTree() skips .git, node_modules, .tern and the other skipped names at any depth", async () => {
  await using p = await tempProject();
  const files: Record<string, string> = { "src/a.ts": "" };
  for (const name of SKIPPED_NAMES) {
    files[`${name}/inside.txt`] = "";
    files[`src/${name}/inside.txt`] = "";
  }
  await write(p.root, files);
  assertEquals(await walkAll(p.root), ["src/a.ts"]);
});

Deno.test("walkTree() leaves out files and links whose name keepName refuses, still entering every directory", async () => {
  await using p = await tempProject();
  await write(p.root, { "a.ts": "", "b.md": "", "x.ts/c.ts": "", "x.ts/d.txt": "", "deep/e/f.ts": "" });
  await Deno.symlink("a.ts", join(p.root, "link.ts"));
  await Deno.symlink("b.md", join(p.root, "link.md"));
  const out: string[] = [];
  const keepName = (name: string) => name.endsWith(".ts");
  for await (const batch of walkTree(p.root, ".", await rulesFor(p.root, "."), { keepName })) {
    out.push(...batch.map(show));
  }
  assertEquals(out, ["a.ts", "deep/e/f.ts", "link.ts@", "x.ts/c.ts"]);
});

Deno.test("walkTree() searches a skipped or ignored directory named as the start, with only its own rules", async () => {
  await using p = await tempProject();
  await write(p.root, {
    ".gitignore": "dist/\n*.map\n",
    "dist/app.js": "",
    "dist/app.js.map": "",
    "dist/.gitignore": "secret.js\n",
    "dist/secret.js": "",
    "node_modules/pkg/index.js": "",
  });
  assertEquals(await walkAll(p.root), [".gitignore"]);
  assertEquals(await walkAll(p.root, "dist"), ["dist/.gitignore", "dist/app.js", "dist/app.js.map"]);
  assertEquals(await walkAll(p.root, "node_modules/pkg"), ["node_modules/pkg/index.js"]);
});

Deno.test("walkTree() applies the .gitignore files above a start directory that is not itself ignored", async () => {
  await using p = await tempProject();
  await write(p.root, { ".gitignore": "*.log\n", "src/a.ts": "", "src/b.log": "" });
  assertEquals(await walkAll(p.root, "src"), ["src/a.ts"]);
});

Deno.test("walkTree() lists symlinks without following them, and skips FIFOs, sockets and loops", async () => {
  await using p = await tempProject();
  await write(p.root, { "real/file.txt": "" });
  await Deno.symlink("/etc/passwd", join(p.root, "passwd"));
  await Deno.symlink(p.outside, join(p.root, "outside-dir"));
  await Deno.symlink("/dev/zero", join(p.root, "zero"));
  await Deno.symlink("loop-b", join(p.root, "loop-a"));
  await Deno.symlink("loop-a", join(p.root, "loop-b"));
  await Deno.symlink("real", join(p.root, "real-link"));
  await sh("mkfifo fifo", p.root);
  // The socket file exists while the listener is open (closing it removes the file).
  using _socket = Deno.listen({ transport: "unix", path: join(p.root, "socket") });
  assert((await Deno.lstat(join(p.root, "socket"))).isSocket);
  assertEquals(await walkAll(p.root), [
    "loop-a@",
    "loop-b@",
    "outside-dir@",
    "passwd@",
    "real/file.txt",
    "real-link@",
    "zero@",
  ]);
});

Deno.test("walkTree() stops at maxDepth and when the signal fires", async () => {
  await using p = await tempProject();
  await write(p.root, { "a.txt": "", "d/b.txt": "", "d/e/c.txt": "" });
  assertEquals(await walkAll(p.root, ".", 1), ["a.txt"]);
  assertEquals(await walkAll(p.root, ".", 2), ["a.txt", "d/b.txt"]);
  const controller = new AbortController();
  controller.abort();
  const walk = walkTree(p.root, ".", new GitignoreRules(p.root), { signal: controller.signal });
  assert(((error: Error) => error.name === "AbortError")(await assertRejects(() => walk.next())));
});

Deno.test("walkTree() hands entries over in batches, also from one large directory, so a search can stop early", async () => {
  await using p = await tempProject();
  const names = Array.from({ length: 600 }, (_, i) => `f${String(i).padStart(3, "0")}.txt`);
  await write(p.root, Object.fromEntries(names.map((name) => [name, ""])));
  const sizes: number[] = [];
  for await (const batch of walkTree(p.root, ".", new GitignoreRules(p.root))) sizes.push(batch.length);
  assertEquals(sizes, [256, 256, 88]);
  assertEquals(await walkAll(p.root), names);
});

Deno.test("walkTree() reads neither a FIFO nor a symlink named .gitignore", async () => {
  await using p = await tempProject();
  await write(p.root, { "a.txt": "", "sub/b.txt": "" });
  await sh("mkfifo .gitignore", p.root);
  await Deno.symlink(join(p.outside, "secret.txt"), join(p.root, "sub/.gitignore"));
  assertEquals(await walkAll(p.root), ["a.txt", "sub/.gitignore@", "sub/b.txt"]);
});
