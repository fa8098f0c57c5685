import assert from "node:assert/strict";
import { join } from "node:path";
import { createFileTracker, snapshotOf } from "../../src/tools/file_tracker.ts";
import { readFileTool } from "../../src/tools/read_file.ts";
import { call, sh, tempProject } from "./_helpers.ts";

function numbered(from: number, to: number): string {
  const lines = [];
  for (let i = from; i <= to; i++) lines.push(`L${i}`);
  return lines.join("\n") + "\n";
}

Deno.test("readFile() numbers lines like cat -n", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "alpha\nbeta\n");
  assert.deepEqual(await call(readFileTool, { path: "a.txt" }, p.ctx), {
    content: "     1\talpha\n     2\tbeta",
    isError: false,
  });
});

Deno.test("readFile() returns a continuation hint past 2000 lines", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "long.txt"), numbered(1, 3234));
  const { content } = await call(readFileTool, { path: "long.txt" }, p.ctx);
  const lines = content.split("\n");
  assert.equal(lines.length, 2001);
  assert.equal(lines[1999], "  2000\tL2000");
  assert.equal(lines[2000], "(1234 more lines: call read_file with offset=2001)");
});

Deno.test("readFile() pages with offset and limit", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "long.txt"), numbered(1, 3234));
  const last = await call(readFileTool, { path: "long.txt", offset: 2001 }, p.ctx);
  assert.ok(last.content.startsWith("  2001\tL2001\n"));
  assert.ok(last.content.endsWith("  3234\tL3234"));
  const window = await call(readFileTool, { path: "long.txt", offset: 10, limit: 2 }, p.ctx);
  assert.equal(
    window.content,
    "    10\tL10\n    11\tL11\n(3223 more lines: call read_file with offset=12)",
  );
});

Deno.test("readFile() ends a page early rather than return over 30,000 characters (below the spill size)", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "wide.txt"), `${"w".repeat(1000)}\n`.repeat(500));
  const lines = (await call(readFileTool, { path: "wide.txt" }, p.ctx)).content.split("\n");
  assert.equal(lines.length, 30);
  assert.equal(lines.at(-1), "(471 more lines: call read_file with offset=30)");
});

Deno.test("readFile() refuses an offset past the end, naming the line count", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "one\ntwo\nthree");
  assert.deepEqual(await call(readFileTool, { path: "a.txt", offset: 10 }, p.ctx), {
    content: "offset 10 is past the end: a.txt has 3 lines.",
    isError: true,
  });
});

Deno.test("readFile() says so for an empty file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "empty.txt"), "");
  assert.deepEqual(await call(readFileTool, { path: "empty.txt" }, p.ctx), {
    content: "(empty file)",
    isError: false,
  });
});

Deno.test("readFile() cuts very long lines with a marker", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "wide.txt"), "x".repeat(5000) + "\nshort\n");
  const { content } = await call(readFileTool, { path: "wide.txt" }, p.ctx);
  const [first, second] = content.split("\n");
  assert.equal(first, `     1\t${"x".repeat(2000)}… [line cut: 3000 more characters]`);
  assert.equal(second, "     2\tshort");
});

Deno.test("readFile() strips a BOM and CRs for display", async () => {
  await using p = await tempProject();
  await Deno.writeFile(join(p.root, "bom.txt"), new TextEncoder().encode("\uFEFFa\r\nb\r\n"));
  const { content } = await call(readFileTool, { path: "bom.txt" }, p.ctx);
  assert.equal(content, "     1\ta\n     2\tb");
});

Deno.test("readFile() refuses a directory, pointing to list_dir", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "src"));
  assert.deepEqual(await call(readFileTool, { path: "src" }, p.ctx), {
    content: '"src" is a directory: use list_dir.',
    isError: true,
  });
});

Deno.test("readFile() refuses a FIFO without hanging", async () => {
  await using p = await tempProject();
  await sh("mkfifo fifo", p.root);
  const started = performance.now();
  const result = await call(readFileTool, { path: "fifo" }, p.ctx);
  assert.ok(result.isError);
  assert.match(result.content, /not a regular file/);
  assert.ok(performance.now() - started < 1000);
});

Deno.test("readFile() refuses invalid UTF-8 (Latin-1 bytes) as binary", async () => {
  await using p = await tempProject();
  await Deno.writeFile(join(p.root, "latin1.txt"), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  assert.deepEqual(await call(readFileTool, { path: "latin1.txt" }, p.ctx), {
    content: '"latin1.txt": binary file, 4 bytes (not valid UTF-8 text).',
    isError: true,
  });
});

Deno.test("readFile() refuses a sparse file over 10 MB", async () => {
  await using p = await tempProject();
  await sh("truncate -s 12M big.txt", p.root);
  const result = await call(readFileTool, { path: "big.txt" }, p.ctx);
  assert.deepEqual(result, { content: '"big.txt": file is 12.0 MB; over the 10 MB limit.', isError: true });
});

Deno.test("readFile() refuses symlinks out of the project and escapes, never showing outside paths", async () => {
  await using p = await tempProject();
  await Deno.symlink("/etc/passwd", join(p.root, "passwd"));
  await Deno.symlink(p.outside, join(p.root, "out"));
  const paths = [
    "passwd",
    "out/secret.txt",
    "../outside/secret.txt",
    join(p.outside, "secret.txt"),
    join(p.evil, "secret.txt"),
    "/etc/passwd",
  ];
  for (const path of paths) {
    const result = await call(readFileTool, { path }, p.ctx);
    assert.ok(result.isError, path);
    assert.match(result.content, /outside the project root/);
    assert.ok(!result.content.includes("secret\n") && !result.content.includes("root:x:"), path);
    if (!path.startsWith("/")) assert.ok(!result.content.includes(p.outside), result.content);
  }
});

Deno.test("readFile() refuses ~, %2e%2e, NUL bytes and a 5,000-character path", async () => {
  await using p = await tempProject();
  const cases: [string, RegExp][] = [
    ["~/secret.txt", /"~\/secret.txt" not found/],
    ["%2e%2e/outside/secret.txt", /not found/],
    ["a\0b", /NUL byte/],
    ["x".repeat(5000), /5000 characters long; the limit is 4096/],
  ];
  for (const [path, pattern] of cases) {
    const result = await call(readFileTool, { path }, p.ctx);
    assert.ok(result.isError);
    assert.match(result.content, pattern);
  }
});

Deno.test("readFile() records the snapshot of the whole file it read, for a page too", async () => {
  await using p = await tempProject();
  const files = createFileTracker();
  const path = join(p.root, "long.txt");
  await Deno.writeTextFile(path, numbered(1, 3000));
  await call(readFileTool, { path: "long.txt", offset: 5, limit: 2 }, { ...p.ctx, files });
  assert.deepEqual(files.get(path), await snapshotOf(await Deno.readFile(path), await Deno.lstat(path)));
});

Deno.test("readFile() records the exact bytes of BOM and CRLF files and of an empty file", async () => {
  await using p = await tempProject();
  const files = createFileTracker();
  await Deno.writeFile(join(p.root, "bom.txt"), new TextEncoder().encode("\uFEFFa\r\nb\r\n"));
  await Deno.writeTextFile(join(p.root, "empty.txt"), "");
  for (const name of ["bom.txt", "empty.txt"]) {
    const path = join(p.root, name);
    await call(readFileTool, { path: name }, { ...p.ctx, files });
    assert.deepEqual(files.get(path), await snapshotOf(await Deno.readFile(path), await Deno.lstat(path)));
  }
});

Deno.test("readFile() records nothing when the read fails", async () => {
  await using p = await tempProject();
  const files = createFileTracker();
  await Deno.writeTextFile(join(p.root, "a.txt"), "one\n");
  await call(readFileTool, { path: "a.txt", offset: 9 }, { ...p.ctx, files });
  assert.equal(files.get(join(p.root, "a.txt")), undefined);
});
