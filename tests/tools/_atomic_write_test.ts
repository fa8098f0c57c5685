import assert from "node:assert/strict";
import { join } from "node:path";
import { atomicWrite } from "../../src/tools/_atomic_write.ts";
import { tempProject } from "./_helpers.ts";

Deno.test("atomicWrite() replaces a file and applies the given mode exactly", async () => {
  await using p = await tempProject();
  const path = join(p.root, "f");
  await Deno.writeTextFile(path, "old");
  await atomicWrite(path, new TextEncoder().encode("new"), { mode: 0o640 });
  assert.equal(await Deno.readTextFile(path), "new");
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640);
});

Deno.test("atomicWrite() removes its temp file when the rename fails", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "dir/inner"), { recursive: true });
  // Renaming a file over a non-empty directory fails after the temp file was written.
  await assert.rejects(atomicWrite(join(p.root, "dir"), new TextEncoder().encode("x")));
  const names = [];
  for await (const entry of Deno.readDir(p.root)) names.push(entry.name);
  assert.deepEqual(names, ["dir"]);
});
