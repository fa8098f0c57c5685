import {
  assertEquals,
  assertMatch,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "../support/assert.ts";
import { join } from "node:path";
import { atomicWrite, hardLinkNote, refuseReadOnly } from "../../src/fs/atomic_write.ts";
import { tempProject } from "../tools/_helpers.ts";

Deno.test("atomicWrite() replaces a file and applies the given mode exactly", async () => {
  await using p = await tempProject();
  const path = join(p.root, "f");
  await Deno.writeTextFile(path, "old");
  await atomicWrite(path, new TextEncoder().encode("new"), { mode: 0o640 });
  assertStrictEquals(await Deno.readTextFile(path), "new");
  assertStrictEquals((await Deno.stat(path)).mode! & 0o777, 0o640);
});

Deno.test("atomicWrite() removes its temp file when the rename fails", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "dir/inner"), { recursive: true });
  // Renaming a file over a non-empty directory fails after the temp file was written.
  await assertRejects(() => atomicWrite(join(p.root, "dir"), new TextEncoder().encode("x")));
  const names = [];
  for await (const entry of Deno.readDir(p.root)) names.push(entry.name);
  assertEquals(names, ["dir"]);
});

Deno.test("hardLinkNote() says nothing for a single link and names the count otherwise", async () => {
  await using p = await tempProject();
  const path = join(p.root, "f");
  await Deno.writeTextFile(path, "x");
  assertStrictEquals(hardLinkNote("f", await Deno.lstat(path), "edit"), "");
  await Deno.link(path, join(p.root, "g"));
  assertStrictEquals(
    hardLinkNote("f", await Deno.lstat(path), "write"),
    "\nnote: f has 2 hard links; the write replaced this path's content only (the other links keep the old content).",
  );
});

Deno.test("refuseReadOnly() lets writable files through and refuses ones without the owner's write bit", async () => {
  await using p = await tempProject();
  const path = join(p.root, "f");
  await Deno.writeTextFile(path, "x");
  refuseReadOnly("f", await Deno.lstat(path));
  await Deno.chmod(path, 0o444);
  assertMatch(
    String(assertThrows(() => refuseReadOnly("f", Deno.lstatSync(path)))),
    /f is read-only \(mode 444\)/,
  );
});
