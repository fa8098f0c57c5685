import assert from "node:assert/strict";
import { join } from "node:path";
import { editFileTool } from "../../src/tools/edit_file.ts";
import { call, sh, tempProject } from "./_helpers.ts";

Deno.test("editFile() replaces a unique match and reports the lines changed", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.ts");
  await Deno.writeTextFile(path, "const a = 1;\nconst b = 2;\n");
  const result = await call(editFileTool, {
    path: "a.ts",
    old_text: "const b = 2;",
    new_text: "const b = 3;\nconst c = 4;",
  }, p.ctx);
  assert.deepEqual(result, { content: "Edited a.ts: replaced 1 occurrence (+2 −1 lines)", isError: false });
  assert.equal(await Deno.readTextFile(path), "const a = 1;\nconst b = 3;\nconst c = 4;\n");
});

Deno.test("editFile() says when old_text is not found and advises re-reading", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "hello\n");
  const result = await call(editFileTool, { path: "a.txt", old_text: "goodbye", new_text: "x" }, p.ctx);
  assert.ok(result.isError);
  assert.match(result.content, /old_text was not found in a.txt.*read the file again with read_file/s);
});

Deno.test("editFile() lists the lines of three matches and suggests context or replace_all", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.txt");
  await Deno.writeTextFile(path, "x = 1\ny = 2\nx = 1\n\nx = 1\n");
  const result = await call(editFileTool, { path: "a.txt", old_text: "x = 1", new_text: "x = 9" }, p.ctx);
  assert.deepEqual(result, {
    content: "old_text occurs 3 times in a.txt (starting on lines 1, 3, 5). " +
      "Add surrounding context to old_text so it matches exactly once, or set replace_all: true.",
    isError: true,
  });
  assert.equal(await Deno.readTextFile(path), "x = 1\ny = 2\nx = 1\n\nx = 1\n");
});

Deno.test("editFile() counts overlapping matches: 'aa' occurs twice in 'aaa'", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "aaa");
  const result = await call(editFileTool, { path: "a.txt", old_text: "aa", new_text: "b" }, p.ctx);
  assert.ok(result.isError);
  assert.match(result.content, /occurs 2 times/);
});

Deno.test("editFile() with replace_all replaces every non-overlapping match and reports the count", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.txt");
  await Deno.writeTextFile(path, "x = 1\ny = 2\nx = 1\nx = 1\n");
  const result = await call(editFileTool, {
    path: "a.txt",
    old_text: "x = 1",
    new_text: "x = 9",
    replace_all: true,
  }, p.ctx);
  assert.deepEqual(result, { content: "Edited a.txt: replaced 3 occurrences (+3 −3 lines)", isError: false });
  assert.equal(await Deno.readTextFile(path), "x = 9\ny = 2\nx = 9\nx = 9\n");
  await Deno.writeTextFile(path, "aaaa a");
  const overlap = await call(editFileTool, {
    path: "a.txt",
    old_text: "aa",
    new_text: "b",
    replace_all: true,
  }, p.ctx);
  assert.match(overlap.content, /replaced 2 occurrences/);
  assert.equal(await Deno.readTextFile(path), "bb a");
});

Deno.test("editFile() matches LF old_text in a CRLF file and keeps CRLF endings", async () => {
  await using p = await tempProject();
  const path = join(p.root, "win.txt");
  await Deno.writeTextFile(path, "one\r\ntwo\r\nthree\r\n");
  const result = await call(editFileTool, {
    path: "win.txt",
    old_text: "one\ntwo\n",
    new_text: "1\n2\n2.5\n",
  }, p.ctx);
  assert.deepEqual(result, {
    content: "Edited win.txt: replaced 1 occurrence (+3 −2 lines)",
    isError: false,
  });
  assert.equal(await Deno.readTextFile(path), "1\r\n2\r\n2.5\r\nthree\r\n");
});

Deno.test("editFile() keeps a BOM and the file mode", async () => {
  await using p = await tempProject();
  const path = join(p.root, "bom.sh");
  await Deno.writeFile(path, new TextEncoder().encode("\uFEFFecho hi\n"));
  await Deno.chmod(path, 0o700);
  await call(editFileTool, { path: "bom.sh", old_text: "hi", new_text: "there" }, p.ctx);
  assert.deepEqual(await Deno.readFile(path), new TextEncoder().encode("\uFEFFecho there\n"));
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o700);
});

Deno.test("editFile() refuses an empty old_text, pointing to write_file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x");
  const result = await call(editFileTool, { path: "a.txt", old_text: "", new_text: "y" }, p.ctx);
  assert.ok(result.isError);
  assert.match(result.content, /old_text is empty.*write_file/);
});

Deno.test("editFile() refuses a no-op edit", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x");
  const result = await call(editFileTool, { path: "a.txt", old_text: "x", new_text: "x" }, p.ctx);
  assert.deepEqual(result, {
    content: "old_text and new_text are identical: the edit would change nothing.",
    isError: true,
  });
});

Deno.test("editFile() never edits an invalid UTF-8 file", async () => {
  await using p = await tempProject();
  const path = join(p.root, "latin1.txt");
  const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
  await Deno.writeFile(path, bytes);
  const result = await call(editFileTool, { path: "latin1.txt", old_text: "caf", new_text: "bar" }, p.ctx);
  assert.ok(result.isError);
  assert.match(result.content, /binary file, 4 bytes/);
  assert.deepEqual(await Deno.readFile(path), bytes);
});

Deno.test("editFile() refuses missing files, directories, FIFOs and paths outside", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "dir"));
  await sh("mkfifo fifo", p.root);
  await Deno.symlink(join(p.outside, "secret.txt"), join(p.root, "link"));
  const cases: [string, RegExp][] = [
    ["missing.txt", /not found/],
    ["dir", /is a directory/],
    ["fifo", /not a regular file/],
    ["link", /outside the project root/],
    ["../outside/secret.txt", /outside the project root/],
  ];
  for (const [path, pattern] of cases) {
    const result = await call(editFileTool, { path, old_text: "secret", new_text: "x" }, p.ctx);
    assert.ok(result.isError, path);
    assert.match(result.content, pattern);
  }
  assert.equal(await Deno.readTextFile(join(p.outside, "secret.txt")), "outside secret\n");
});
