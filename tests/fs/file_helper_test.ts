import { assert, assertEquals, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { closeFileHelper, FileHelper, fileHelper, useFileHelper } from "../../src/fs/file_helper.ts";
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

Deno.test("fileHelper() is off until turned on; the file tools then check and write through it", async () => {
  await using p = await tempProject({ "a.txt": "hello\n" });
  assertStrictEquals(fileHelper(), null);
  useFileHelper();
  try {
    assert(fileHelper()?.alive);
    assertStrictEquals((await readTextFile(p.root, "a.txt")).text, "hello\n");
    const target = join(p.root, "new/dir/b.txt");
    assertEquals(await makeParentsChecked(p.root, target, "new/dir/b.txt"), ["new", "new/dir"]);
    await atomicWrite(target, new TextEncoder().encode("b\n"));
    assertStrictEquals(await Deno.readTextFile(target), "b\n");
  } finally {
    await closeFileHelper();
  }
  assertStrictEquals(fileHelper(), null);
});
