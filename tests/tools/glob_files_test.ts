import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { globFilesTool } from "../../src/tools/glob_files.ts";
import { call, callResult, sh, tempProject } from "./_helpers.ts";

async function write(root: string, names: string[]): Promise<void> {
  for (const name of names) {
    await Deno.mkdir(join(root, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, name), "");
  }
}

Deno.test("globFiles() matches paths with ** and braces, sorted by path, hidden files included", async () => {
  await using p = await tempProject();
  await write(p.root, [
    "src/main.ts",
    "src/ui/app.tsx",
    "src/ui/app.test.ts",
    "README.md",
    ".github/x.ts",
    "b.ts",
  ]);
  assertEquals(await call(globFilesTool, { pattern: "**/*.ts" }, p.ctx), {
    content: ".github/x.ts\nb.ts\nsrc/main.ts\nsrc/ui/app.test.ts",
    isError: false,
  });
  assertEquals(await call(globFilesTool, { pattern: "src/**/*.{ts,tsx}" }, p.ctx), {
    content: "src/main.ts\nsrc/ui/app.test.ts\nsrc/ui/app.tsx",
    isError: false,
  });
  assertEquals(await call(globFilesTool, { pattern: "./src/*.ts" }, p.ctx), {
    content: "src/main.ts",
    isError: false,
  });
});

Deno.test("globFiles() matches a file named like its glob pattern literally, as picomatch does", async () => {
  await using p = await tempProject();
  await write(p.root, ["app/[id].ts", "app/i.ts", "app/x.ts", "{a,b}.ts", "a.ts", "c.ts"]);
  assertEquals(await call(globFilesTool, { pattern: "app/[id].ts" }, p.ctx), {
    content: "app/[id].ts\napp/i.ts",
    isError: false,
  });
  // The brace's regex matches only a.ts and b.ts: the file named "{a,b}.ts" matches by being the pattern.
  assertEquals(await call(globFilesTool, { pattern: "{a,b}.ts" }, p.ctx), {
    content: "a.ts\n{a,b}.ts",
    isError: false,
  });
});

Deno.test("globFiles() matches from path, lists root-relative paths, and hints at ** when nothing is on top", async () => {
  await using p = await tempProject();
  await write(p.root, ["src/a/one.ts", "src/two.ts", "lib/three.ts"]);
  assertEquals(await call(globFilesTool, { pattern: "**/*.ts", path: "src" }, p.ctx), {
    content: "src/a/one.ts\nsrc/two.ts",
    isError: false,
  });
  const none = await call(globFilesTool, { pattern: "*.ts" }, p.ctx);
  assertStrictEquals(none.isError, false);
  assertMatch(
    none.content,
    /^No files match "\*\.ts" in the project .* use "\*\*\/\*\.ts" to search subdirectories/,
  );
});

Deno.test("globFiles() honours .gitignore (root and nested) and skips node_modules, .git and .tern", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, ".gitignore"), "dist/\n*.log\n");
  await Deno.mkdir(join(p.root, "pkg"));
  await Deno.writeTextFile(join(p.root, "pkg/.gitignore"), "generated.js\n");
  await write(p.root, [
    "index.js",
    "app.log",
    "dist/bundle.js",
    "pkg/generated.js",
    "pkg/lib.js",
    "node_modules/dep/index.js",
    ".git/hooks/pre-commit.js",
    ".tern/tool-outputs/x.js",
  ]);
  assertEquals(await call(globFilesTool, { pattern: "**/*.js" }, p.ctx), {
    content: "index.js\npkg/lib.js",
    isError: false,
  });
  // A skipped directory named by the pattern's own fixed prefix is searched: it was asked for.
  assertEquals(await call(globFilesTool, { pattern: "node_modules/**/*.js" }, p.ctx), {
    content: "node_modules/dep/index.js",
    isError: false,
  });
});

Deno.test("globFiles() lists symlinks without following them and skips FIFOs and sockets", async () => {
  await using p = await tempProject();
  await write(p.root, ["real/inner.txt"]);
  await Deno.symlink("/etc/passwd", join(p.root, "passwd.txt"));
  await Deno.symlink(p.outside, join(p.root, "outside-dir"));
  await Deno.symlink("loop-b.txt", join(p.root, "loop-a.txt"));
  await Deno.symlink("loop-a.txt", join(p.root, "loop-b.txt"));
  await Deno.symlink("/dev/zero", join(p.root, "zero.txt"));
  await sh("mkfifo fifo.txt", p.root);
  using _socket = Deno.listen({ transport: "unix", path: join(p.root, "socket.txt") });
  assertEquals(await call(globFilesTool, { pattern: "**/*" }, p.ctx), {
    content: [
      "loop-a.txt (symlink)",
      "loop-b.txt (symlink)",
      "outside-dir (symlink)",
      "passwd.txt (symlink)",
      "real/inner.txt",
      "zero.txt (symlink)",
    ].join("\n"),
    isError: false,
  });
  const through = await call(globFilesTool, { pattern: "outside-dir/*" }, p.ctx);
  assertMatch(through.content, /^No files match/);
});

Deno.test("globFiles() caps results and says the list is partial and how to narrow it", async () => {
  await using p = await tempProject();
  await write(p.root, Array.from({ length: 250 }, (_, i) => `f${String(i).padStart(3, "0")}.txt`));
  const result = await call(globFilesTool, { pattern: "*.txt" }, p.ctx);
  const lines = result.content.split("\n");
  assertStrictEquals(lines.length, 201);
  assertStrictEquals(lines[199], "f199.txt");
  assertStrictEquals(
    lines[200],
    "[partial: showing 200 of 250 files. Narrow the search with path (a subdirectory) or a more specific " +
      "pattern, or raise max_results (at most 5000).]",
  );
  const few = await callResult(globFilesTool, { pattern: "*.txt", max_results: 2 }, p.ctx);
  assertMatch(few.content, /^f000\.txt\nf001\.txt\n\[partial: showing 2 of 250 files/);
  assertEquals(few.details, { shown: { from: 1, to: 2, of: 250, unit: "files" } }, "what the UI shows");
});

Deno.test("globFiles() lists .env files by name (contents stay unreadable)", async () => {
  await using p = await tempProject();
  await write(p.root, [".env", ".env.example", "a.txt"]);
  assertEquals(await call(globFilesTool, { pattern: ".env*" }, p.ctx), {
    content: ".env\n.env.example",
    isError: false,
  });
});

Deno.test("globFiles() refuses paths and patterns that leave the project, and a file as path", async () => {
  await using p = await tempProject();
  await write(p.root, ["a.txt"]);
  await Deno.symlink(p.outside, join(p.root, "out"));
  for (const path of ["..", "../outside", "/etc", "out", "../proj-evil"]) {
    const result = await call(globFilesTool, { pattern: "*", path }, p.ctx);
    assertStrictEquals(result.isError, true, path);
    assertMatch(result.content, /outside the project root/);
    assert(!result.content.includes(p.outside));
  }
  for (const pattern of ["../outside/*", "/etc/*", "a/../../x"]) {
    const result = await call(globFilesTool, { pattern }, p.ctx);
    assertStrictEquals(result.isError, true, pattern);
    assertMatch(result.content, /must stay inside path: give it relative to path/);
  }
  const file = await call(globFilesTool, { pattern: "*", path: "a.txt" }, p.ctx);
  assertEquals(file, {
    content: 'glob_files: "a.txt" is not a directory: give the directory to search in.',
    isError: true,
  });
});

Deno.test({
  name: "globFiles() skips a device node (root only: mknod)",
  // mknod needs root; CI containers run tests as root, a developer's machine may not.
  ignore: Deno.uid() !== 0,
  fn: async () => {
    await using p = await tempProject();
    await write(p.root, ["a.txt"]);
    await sh("mknod zero-device c 1 5", p.root);
    assertEquals(await call(globFilesTool, { pattern: "*" }, p.ctx), {
      content: "a.txt",
      isError: false,
    });
  },
});
