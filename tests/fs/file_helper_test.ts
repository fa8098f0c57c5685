import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { FileHelper } from "../../src/fs/file_helper.ts";
import { closeFileWall, fileHelper, openFileWall } from "../../src/fs/file_wall.ts";
import { atomicWrite, makeParentsChecked } from "../../src/fs/atomic_write.ts";
import { readTextFile } from "../../src/fs/path_guard.ts";
import { tempProject } from "../tools/_helpers.ts";

/** A helper for one test, closed at its end (the sanitizers check that nothing is left running). */
async function withHelper(fn: (helper: FileHelper) => Promise<void>): Promise<void> {
  const helper = FileHelper.start();
  assert(helper, "the file helper starts on Linux");
  try {
    await fn(helper);
  } finally {
    await helper.close();
  }
}

Deno.test("FileHelper.identity() shows a regular file's device and inode from inside its directory", async () => {
  await using p = await tempProject({ "a.txt": "hello\n", "odd\nname \\ é.txt": "x" });
  await withHelper(async (helper) => {
    for (const name of ["a.txt", "odd\nname \\ é.txt"]) {
      const info = await Deno.lstat(join(p.root, name));
      assertEquals(
        await helper.identity(p.root, name),
        { dev: info.dev, ino: info.ino, regular: true },
        name,
      );
    }
  });
});

Deno.test("FileHelper.identity() never follows the entry, and says changed for a moved directory or a missing entry", async () => {
  await using p = await tempProject({ "d/a.txt": "inside\n" });
  await Deno.symlink(join(p.outside, "secret.txt"), join(p.root, "d", "link.txt"));
  await Deno.symlink(p.outside, join(p.root, "d.link"));
  await withHelper(async (helper) => {
    const link = await helper.identity(join(p.root, "d"), "link.txt");
    assertStrictEquals("regular" in link && link.regular, false, "a symlink is not a regular file");
    // The directory named leads elsewhere: the kernel's view of where the helper is gives it away.
    assertEquals(await helper.identity(join(p.root, "d.link"), "secret.txt"), { changed: true });
    assertEquals(await helper.identity(join(p.root, "d"), "missing.txt"), { changed: true });
    assertEquals(await helper.identity(join(p.root, "gone"), "a.txt"), { changed: true });
  });
});

Deno.test("FileHelper.create() makes each missing level, writes atomically with the mode, refuses what changed", async () => {
  await using p = await tempProject({ "file.txt": "x" });
  await Deno.symlink(p.outside, join(p.root, "out"));
  await withHelper(async (helper) => {
    const made = await helper.create([p.root, "n/deeper", ""], new Uint8Array());
    assertEquals(made, { code: 0, created: [join(p.root, "n"), join(p.root, "n/deeper")] });
    const data = new TextEncoder().encode("written\n");
    const dir = join(p.root, "n/deeper");
    assertEquals(await helper.create([dir, "", "f.txt", ".f.tmp", "640"], data), { code: 0, created: [] });
    assertStrictEquals(await Deno.readTextFile(join(dir, "f.txt")), "written\n");
    assertStrictEquals((await Deno.stat(join(dir, "f.txt"))).mode! & 0o777, 0o640);
    assertStrictEquals((await helper.create([p.root, "out/x", ""], new Uint8Array())).code, 3);
    assertStrictEquals((await helper.create([p.root, "file.txt/x", ""], new Uint8Array())).code, 4);
    assertStrictEquals((await helper.create([join(p.root, "out"), "", "f", ".t", ""], data)).code, 3);
  });
  assertEquals([...Deno.readDirSync(p.outside)].map((entry) => entry.name), ["secret.txt"]);
});

Deno.test("fileHelper() is off until the wall is opened; the file tools then check and write through it", async () => {
  await using p = await tempProject({ "a.txt": "hello\n" });
  assertStrictEquals(fileHelper(), null);
  openFileWall(() => {});
  try {
    assert(fileHelper()?.alive);
    assertStrictEquals((await readTextFile(p.root, "a.txt")).text, "hello\n");
    const target = join(p.root, "new/dir/b.txt");
    assertEquals(await makeParentsChecked(p.root, target, "new/dir/b.txt"), ["new", "new/dir"]);
    await atomicWrite(target, new TextEncoder().encode("b\n"));
    assertStrictEquals(await Deno.readTextFile(target), "b\n");
  } finally {
    await closeFileWall();
  }
  assertStrictEquals(fileHelper(), null);
});

Deno.test("FileHelper.read() reads a file whole from inside its directory, any bytes, several MB through the pipe", async () => {
  await using p = await tempProject();
  const big = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7) % 256);
  await Deno.writeFile(join(p.root, "big.bin"), big);
  await withHelper(async (helper) => {
    const info = await Deno.lstat(join(p.root, "big.bin"));
    const [first, second] = await Promise.all([
      helper.read(p.root, "big.bin", 10 * 1024 * 1024),
      helper.read(p.root, "big.bin", 10 * 1024 * 1024),
    ]);
    for (const got of [first, second]) {
      assert("bytes" in got);
      assertEquals([got.dev, got.ino, got.bytes.length], [info.dev, info.ino, big.length]);
      assert(got.bytes.every((byte, i) => byte === big[i]), "the same bytes");
    }
    assertEquals(await helper.read(p.root, "big.bin", 1024), { tooLarge: true });
  });
});

Deno.test("FileHelper.read() never follows the entry and never blocks: a symlink, a FIFO, a directory, a moved one", async () => {
  await using p = await tempProject({ "d/a.txt": "inside\n" });
  await Deno.symlink(join(p.outside, "secret.txt"), join(p.root, "link.txt"));
  await Deno.symlink(p.outside, join(p.root, "d.link"));
  await new Deno.Command("mkfifo", { args: [join(p.root, "pipe")] }).output();
  await withHelper(async (helper) => {
    assertEquals(await helper.read(p.root, "link.txt", 100), { errno: 40 }); // ELOOP
    assertEquals(await helper.read(p.root, "pipe", 100), { kind: "fifo" });
    assertEquals(await helper.read(p.root, "d", 100), { kind: "directory" });
    assertEquals(await helper.read(p.root, "missing", 100), { errno: 2 }); // ENOENT
    assertEquals(await helper.read(join(p.root, "d.link"), "secret.txt", 100), { changed: true });
  });
});

Deno.test("readTextFile() through the helper refuses what the guard refuses, in the same words", async () => {
  await using p = await tempProject({ "a.txt": "hello\n" });
  await Deno.writeFile(join(p.root, "bin.dat"), new Uint8Array([0x61, 0xff, 0xfe, 0x62]));
  await new Deno.Command("mkfifo", { args: [join(p.root, "pipe")] }).output();
  openFileWall(() => {});
  try {
    assertStrictEquals((await readTextFile(p.root, "a.txt")).text, "hello\n");
    const refusal = (path: string) => readTextFile(p.root, path).then(() => "read", (error) => String(error));
    assertMatch(await refusal("pipe"), /not a regular file \(it is a FIFO/);
    assertMatch(await refusal("bin.dat"), /binary file/);
  } finally {
    await closeFileWall();
  }
});
