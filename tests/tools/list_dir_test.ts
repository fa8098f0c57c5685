import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { listDirTool } from "../../src/tools/list_dir.ts";
import { call, sh, tempProject } from "./_helpers.ts";

Deno.test("listDir() sorts entries and marks directories, symlinks and FIFOs", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "src"));
  await Deno.writeTextFile(join(p.root, "b.txt"), "");
  await Deno.writeTextFile(join(p.root, "src/main.ts"), "");
  await Deno.symlink("src/main.ts", join(p.root, "a-link"));
  await Deno.symlink("gone.txt", join(p.root, "c-dangling"));
  await Deno.symlink("/etc/passwd", join(p.root, "d-passwd"));
  await Deno.symlink(p.outside, join(p.root, "e-out"));
  await sh("mkfifo f-fifo", p.root);
  const result = await call(listDirTool, {}, p.ctx);
  assertEquals(result, {
    content: [
      "a-link -> src/main.ts",
      "b.txt",
      "c-dangling -> gone.txt (missing)",
      "d-passwd -> (outside the project)",
      "e-out -> (outside the project)",
      "f-fifo (fifo)",
      "src/",
    ].join("\n"),
    isError: false,
  });
  assert(!result.content.includes(p.outside));
});

Deno.test("listDir() lists a subdirectory and says when a directory is empty", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "src/empty"), { recursive: true });
  await Deno.writeTextFile(join(p.root, "src/x.ts"), "");
  assertEquals(await call(listDirTool, { path: "src" }, p.ctx), {
    content: "empty/\nx.ts",
    isError: false,
  });
  assertEquals(await call(listDirTool, { path: "src/empty" }, p.ctx), {
    content: "(empty directory)",
    isError: false,
  });
});

Deno.test("listDir() caps the listing at 500 entries with a note", async () => {
  await using p = await tempProject();
  await sh("mkdir many && cd many && touch $(seq -f 'f%04g' 1 620)", p.root);
  const { content } = await call(listDirTool, { path: "many" }, p.ctx);
  const lines = content.split("\n");
  assertStrictEquals(lines.length, 501);
  assertStrictEquals(lines[0], "f0001");
  assertStrictEquals(lines[499], "f0500");
  assertStrictEquals(lines[500], "(120 more entries not shown)");
});

Deno.test("listDir() refuses a file, pointing to read_file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "");
  assertEquals(await call(listDirTool, { path: "a.txt" }, p.ctx), {
    content: '"a.txt" is a file: use read_file.',
    isError: true,
  });
});

Deno.test("listDir() refuses directories outside: symlinked, ../, absolute, /proj-evil", async () => {
  await using p = await tempProject();
  await Deno.symlink(p.outside, join(p.root, "out"));
  for (const path of ["out", "out/", "..", "../outside", p.outside, p.evil, "/etc"]) {
    const result = await call(listDirTool, { path }, p.ctx);
    assert(result.isError, path);
    assertMatch(result.content, /outside the project root/);
    assert(!result.content.includes("secret.txt"));
  }
});

Deno.test("listDir() refuses missing paths, NUL bytes and long paths", async () => {
  await using p = await tempProject();
  const cases: [string, RegExp][] = [
    ["nope", /"nope" not found/],
    ["~", /"~" not found/],
    ["a\0", /NUL byte/],
    ["d/".repeat(2500), /limit is 4096/],
  ];
  for (const [path, pattern] of cases) {
    const result = await call(listDirTool, { path }, p.ctx);
    assert(result.isError, path);
    assertMatch(result.content, pattern);
  }
});

Deno.test("listDir() refuses a symlink loop and a socket by name, and lists both without following them", async () => {
  await using p = await tempProject();
  // The socket file exists while the listener is open (closing it removes the file).
  using _socket = Deno.listen({ transport: "unix", path: join(p.root, "sock") });
  await Deno.symlink("loop-b", join(p.root, "loop-a"));
  await Deno.symlink("loop-a", join(p.root, "loop-b"));
  await Deno.symlink("/dev/zero", join(p.root, "zero"));
  assertEquals(await call(listDirTool, {}, p.ctx), {
    content:
      "loop-a@ (cannot be followed)\nloop-b@ (cannot be followed)\nsock (socket)\nzero -> (outside the project)",
    isError: false,
  });
  const cases: [string, string][] = [
    ["loop-a", '"loop-a": too many levels of symbolic links.'],
    ["loop-b/inner", '"loop-b/inner": too many levels of symbolic links.'],
    ["sock", '"sock" is not a directory.'],
  ];
  for (const [path, content] of cases) {
    assertEquals(await call(listDirTool, { path }, p.ctx), { content, isError: true });
  }
  const zero = await call(listDirTool, { path: "zero" }, p.ctx);
  assertStrictEquals(zero.isError, true);
  assertMatch(zero.content, /outside the project root/);
});
