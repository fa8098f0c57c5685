import { assertStrictEquals } from "../../support/assert.ts";
import { join } from "node:path";
import { readSearchable } from "../../../src/tools/search/searchable_file.ts";
import { sh, tempProject } from "../_helpers.ts";

Deno.test("readSearchable() returns text, and null for binary, invalid UTF-8, over 10 MB and special files", async () => {
  await using p = await tempProject();
  const files: Record<string, Uint8Array> = {
    "text.txt": new TextEncoder().encode("héllo\n"),
    "bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]),
    "nul-early.bin": new Uint8Array([0x68, 0x00, 0x69]),
    "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
  };
  for (const [name, bytes] of Object.entries(files)) await Deno.writeFile(join(p.root, name), bytes);
  // A NUL far past the first 8 KB still makes the file binary (ripgrep drops a file at its first NUL).
  await Deno.writeTextFile(join(p.root, "nul-late.txt"), `${"a".repeat(100_000)}\0tail`);
  await sh("truncate -s 11M big.txt && mkfifo fifo", p.root);
  const read = (name: string) => readSearchable(join(p.root, name));
  assertStrictEquals(await read("text.txt"), "héllo\n");
  assertStrictEquals(await read("bom.txt"), "hi");
  for (const name of ["nul-early.bin", "nul-late.txt", "latin1.txt", "big.txt", "fifo", "missing"]) {
    assertStrictEquals(await read(name), null, name);
  }
});
