import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { createFileTracker, snapshotOf } from "../../src/fs/file_tracker.ts";
import { call, readFileTool, sh, tempProject } from "./_helpers.ts";
import { grepCodeTool } from "../../src/tools/grep_code.ts";

function numbered(from: number, to: number): string {
  const lines = [];
  for (let i = from; i <= to; i++) lines.push(`L${i}`);
  return lines.join("\n") + "\n";
}

Deno.test("readFile() numbers lines like cat -n", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "alpha\nbeta\n");
  assertEquals(await call(readFileTool, { path: "a.txt" }, p.ctx), {
    content: "     1\talpha\n     2\tbeta",
    isError: false,
  });
});

Deno.test("readFile() returns a continuation hint past 2000 lines", async () => {
  await using p = await tempProject();
  // Short lines, so the line limit ends the page before the character limit does.
  await Deno.writeTextFile(join(p.root, "long.txt"), "x\n".repeat(3234));
  const { content } = await call(readFileTool, { path: "long.txt" }, p.ctx);
  const lines = content.split("\n");
  assertStrictEquals(lines.length, 2001);
  assertStrictEquals(lines[1999], "  2000\tx");
  assertStrictEquals(lines[2000], "(1234 more lines: call read_file with offset=2001)");
});

Deno.test("readFile() pages with offset and limit", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "long.txt"), numbered(1, 3234));
  const last = await call(readFileTool, { path: "long.txt", offset: 2001 }, p.ctx);
  assert(last.content.startsWith("  2001\tL2001\n"));
  assert(last.content.endsWith("  3234\tL3234"));
  const window = await call(readFileTool, { path: "long.txt", offset: 10, limit: 2 }, p.ctx);
  assertStrictEquals(
    window.content,
    "    10\tL10\n    11\tL11\n(3223 more lines: call read_file with offset=12)",
  );
});

Deno.test("readFile() ends a page early rather than return over 24,000 characters (below the spill size)", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "wide.txt"), `${"w".repeat(1000)}\n`.repeat(500));
  const lines = (await call(readFileTool, { path: "wide.txt" }, p.ctx)).content.split("\n");
  assertStrictEquals(lines.length, 24);
  assertStrictEquals(lines.at(-1), "(477 more lines: call read_file with offset=24)");
});

Deno.test("readFile() refuses an offset past the end, naming the line count", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "one\ntwo\nthree");
  assertEquals(await call(readFileTool, { path: "a.txt", offset: 10 }, p.ctx), {
    content: "offset 10 is past the end: a.txt has 3 lines.",
    isError: true,
  });
});

Deno.test("readFile() says so for an empty file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "empty.txt"), "");
  assertEquals(await call(readFileTool, { path: "empty.txt" }, p.ctx), {
    content: "(empty file)",
    isError: false,
  });
});

Deno.test("readFile() cuts very long lines with a marker", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "wide.txt"), "x".repeat(5000) + "\nshort\n");
  const { content } = await call(readFileTool, { path: "wide.txt" }, p.ctx);
  const [first, second] = content.split("\n");
  assertStrictEquals(first, `     1\t${"x".repeat(2000)}… [line cut: 3000 more characters]`);
  assertStrictEquals(second, "     2\tshort");
});

Deno.test("readFile() strips a BOM and CRs for display", async () => {
  await using p = await tempProject();
  await Deno.writeFile(join(p.root, "bom.txt"), new TextEncoder().encode("\uFEFFa\r\nb\r\n"));
  const { content } = await call(readFileTool, { path: "bom.txt" }, p.ctx);
  assertStrictEquals(content, "     1\ta\n     2\tb");
});

Deno.test("readFile() refuses a directory, pointing to list_dir", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "src"));
  assertEquals(await call(readFileTool, { path: "src" }, p.ctx), {
    content: '"src" is a directory: use list_dir.',
    isError: true,
  });
});

Deno.test("readFile() refuses a FIFO without hanging", async () => {
  await using p = await tempProject();
  await sh("mkfifo fifo", p.root);
  const result = await call(readFileTool, { path: "fifo" }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /not a regular file/);
});

Deno.test("readFile() refuses invalid UTF-8 (Latin-1 bytes) as binary", async () => {
  await using p = await tempProject();
  await Deno.writeFile(join(p.root, "latin1.txt"), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  assertEquals(await call(readFileTool, { path: "latin1.txt" }, p.ctx), {
    content: '"latin1.txt": binary file, 4 bytes (not valid UTF-8 text).',
    isError: true,
  });
});

Deno.test("readFile() refuses a sparse file over 10 MB", async () => {
  await using p = await tempProject();
  await sh("truncate -s 12M big.txt", p.root);
  const result = await call(readFileTool, { path: "big.txt" }, p.ctx);
  assertEquals(result, { content: '"big.txt": file is 12.0 MB; over the 10 MB limit.', isError: true });
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
    assert(result.isError, path);
    assertMatch(result.content, /outside the project root/);
    assert(!result.content.includes("secret\n") && !result.content.includes("root:x:"), path);
    if (!path.startsWith("/")) assert(!result.content.includes(p.outside), result.content);
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
    assert(result.isError);
    assertMatch(result.content, pattern);
  }
});

Deno.test("readFile() records the snapshot of the whole file it read, for a page too", async () => {
  await using p = await tempProject();
  const files = createFileTracker();
  const path = join(p.root, "long.txt");
  await Deno.writeTextFile(path, numbered(1, 3000));
  await call(readFileTool, { path: "long.txt", offset: 5, limit: 2 }, { ...p.ctx, files });
  assertEquals(files.get(path), await snapshotOf(await Deno.readFile(path), await Deno.lstat(path)));
});

Deno.test("readFile() records the exact bytes of BOM and CRLF files and of an empty file", async () => {
  await using p = await tempProject();
  const files = createFileTracker();
  await Deno.writeFile(join(p.root, "bom.txt"), new TextEncoder().encode("\uFEFFa\r\nb\r\n"));
  await Deno.writeTextFile(join(p.root, "empty.txt"), "");
  for (const name of ["bom.txt", "empty.txt"]) {
    const path = join(p.root, name);
    await call(readFileTool, { path: name }, { ...p.ctx, files });
    assertEquals(files.get(path), await snapshotOf(await Deno.readFile(path), await Deno.lstat(path)));
  }
});

Deno.test("readFile() records nothing when the read fails", async () => {
  await using p = await tempProject();
  const files = createFileTracker();
  await Deno.writeTextFile(join(p.root, "a.txt"), "one\n");
  await call(readFileTool, { path: "a.txt", offset: 9 }, { ...p.ctx, files });
  assertStrictEquals(files.get(join(p.root, "a.txt")), undefined);
});

Deno.test("readFile() refuses a socket and a symlink loop, saying what they are, without hanging", async () => {
  await using p = await tempProject();
  // The socket file exists while the listener is open (closing it removes the file).
  using _socket = Deno.listen({ transport: "unix", path: join(p.root, "sock") });
  await Deno.symlink("loop-b", join(p.root, "loop-a"));
  await Deno.symlink("loop-a", join(p.root, "loop-b"));
  assertEquals(await call(readFileTool, { path: "sock" }, p.ctx), {
    content: '"sock" is not a regular file (it is a socket).',
    isError: true,
  });
  for (const path of ["loop-a", "loop-b/inner.txt"]) {
    assertEquals(await call(readFileTool, { path }, p.ctx), {
      content: `"${path}": too many levels of symbolic links.`,
      isError: true,
    });
  }
});

Deno.test("readFile() refuses a link to /dev/zero as outside the project, never reading it", async () => {
  await using p = await tempProject();
  await Deno.symlink("/dev/zero", join(p.root, "zero.txt"));
  const result = await call(readFileTool, { path: "zero.txt" }, p.ctx);
  assertStrictEquals(result.isError, true);
  assertMatch(result.content, /^"zero.txt" is outside the project root/);
  assert(!result.content.includes("/dev"), result.content);
});

Deno.test({
  name:
    "readFile() refuses a device node inside the project (a /dev/zero twin) as not a regular file (root only: mknod)",
  // mknod needs root; CI containers run tests as root, a developer's machine may not.
  ignore: Deno.uid() !== 0,
  fn: async () => {
    await using p = await tempProject();
    await sh("mknod zero-device c 1 5", p.root);
    assertEquals(await call(readFileTool, { path: "zero-device" }, p.ctx), {
      content: '"zero-device" is not a regular file (it is a device).',
      isError: true,
    });
  },
});

Deno.test("readFile() pages through a 5 MB text file: first page, any page by offset, the last page", async () => {
  await using p = await tempProject();
  const row = (n: number) => `row ${n} ${"=".repeat(40)}`;
  const text = Array.from({ length: 100_000 }, (_, i) => row(i + 1)).join("\n") + "\n";
  assert(text.length > 5_000_000);
  await Deno.writeTextFile(join(p.root, "five.txt"), text);
  const first = await call(readFileTool, { path: "five.txt" }, p.ctx);
  const firstLines = first.content.split("\n");
  assertStrictEquals(firstLines[0], `     1\t${row(1)}`);
  // A page stays under the spill size: the model gets a page, never 5 MB.
  assert(first.content.length <= 30_100, `${first.content.length}`);
  const next = Number(/offset=(\d+)\)$/.exec(firstLines.at(-1)!)?.[1]);
  assertStrictEquals(firstLines.length, next);
  const middle = await call(readFileTool, { path: "five.txt", offset: 50_000, limit: 2 }, p.ctx);
  assertStrictEquals(
    middle.content,
    ` 50000\t${row(50_000)}\n 50001\t${row(50_001)}\n(49999 more lines: call read_file with offset=50002)`,
  );
  const last = await call(readFileTool, { path: "five.txt", offset: 99_999 }, p.ctx);
  assertEquals(last, { content: ` 99999\t${row(99_999)}\n100000\t${row(100_000)}`, isError: false });
});

Deno.test("readFile() refuses a 2 GB sparse file by its size, before reading any of it", async () => {
  await using p = await tempProject();
  await sh("truncate -s 2G huge.log", p.root);
  assertEquals(await call(readFileTool, { path: "huge.log" }, p.ctx), {
    content: '"huge.log": file is 2048.0 MB; over the 10 MB limit.',
    isError: true,
  });
});

Deno.test("readFile() shows a 10 MB single line as one cut line", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "one-line.min.js"), "z".repeat(10_000_000));
  assertEquals(await call(readFileTool, { path: "one-line.min.js" }, p.ctx), {
    content: `     1\t${"z".repeat(2000)}… [line cut: 9998000 more characters]`,
    isError: false,
  });
});

Deno.test("readFile() refuses a binary file (a copy of /bin/true) as not UTF-8 text", async () => {
  await using p = await tempProject();
  await Deno.copyFile("/bin/true", join(p.root, "true-copy"));
  const result = await call(readFileTool, { path: "true-copy" }, p.ctx);
  assertStrictEquals(result.isError, true);
  assertMatch(result.content, /^"true-copy": binary file, \d+ bytes \(not valid UTF-8 text\)\.$/);
});

Deno.test("readFile() refuses valid UTF-8 that holds NUL bytes (an ELF header) as binary", async () => {
  await using p = await tempProject();
  await Deno.writeFile(join(p.root, "elf"), new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]));
  assertEquals(await call(readFileTool, { path: "elf" }, p.ctx), {
    content: '"elf": binary file, 10 bytes (it contains NUL bytes).',
    isError: true,
  });
});

Deno.test("readFile() and grep_code never read the key of tern's own state, even through a link", async () => {
  await using p = await tempProject({ ".tern/local/key.json": '{"secret":"0123abcd"}\n' });
  await Deno.symlink(".tern/local/key.json", join(p.root, "k.json"));
  for (const path of [".tern/local/key.json", "k.json", ".TERN/local/KEY.json"]) {
    const result = await call(readFileTool, { path }, p.ctx);
    assert(result.isError, path);
    assert(!result.content.includes("0123abcd"), result.content);
  }
  const grep = await call(grepCodeTool, { pattern: "secret", path: ".tern/local/key.json" }, p.ctx);
  assert(!grep.content.includes("0123abcd"), grep.content);
  assertMatch((await call(readFileTool, { path: "k.json" }, p.ctx)).content, /key of tern's own state/);
});
