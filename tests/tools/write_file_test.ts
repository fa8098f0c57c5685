import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { call, sh, tempProject } from "./_helpers.ts";

async function entries(dir: string): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("writeFile() creates a file and reports its size", async () => {
  await using p = await tempProject();
  assert.deepEqual(await call(writeFileTool, { path: "a.txt", content: "héllo\n" }, p.ctx), {
    content: "Created a.txt (7 bytes)",
    isError: false,
  });
  assert.equal(await Deno.readTextFile(join(p.root, "a.txt")), "héllo\n");
});

Deno.test("writeFile() creates missing nested directories", async () => {
  await using p = await tempProject();
  const result = await call(writeFileTool, { path: "src/deep/er/x.ts", content: "x" }, p.ctx);
  assert.deepEqual(result, { content: "Created src/deep/er/x.ts (1 bytes)", isError: false });
  assert.equal(await Deno.readTextFile(join(p.root, "src/deep/er/x.ts")), "x");
});

Deno.test("writeFile() overwrites atomically, keeping the mode and leaving no temp file", async () => {
  await using p = await tempProject();
  const path = join(p.root, "run.sh");
  await Deno.writeTextFile(path, "old");
  await Deno.chmod(path, 0o751);
  const result = await call(writeFileTool, { path: "run.sh", content: "new content" }, p.ctx);
  assert.deepEqual(result, { content: "Overwrote run.sh (11 bytes)", isError: false });
  assert.equal(await Deno.readTextFile(path), "new content");
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o751);
  assert.deepEqual(await entries(p.root), ["run.sh"]);
});

Deno.test("writeFile() keeps the BOM of the file it overwrites", async () => {
  await using p = await tempProject();
  const path = join(p.root, "bom.txt");
  await Deno.writeFile(path, new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
  await call(writeFileTool, { path: "bom.txt", content: "b" }, p.ctx);
  assert.deepEqual(await Deno.readFile(path), new Uint8Array([0xef, 0xbb, 0xbf, 0x62]));
});

Deno.test("writeFile() refuses when a path component is a file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "file.txt"), "x");
  assert.deepEqual(await call(writeFileTool, { path: "file.txt/sub/a.txt", content: "y" }, p.ctx), {
    content: '"file.txt/sub/a.txt": "file.txt" is a file, not a directory, so nothing can be inside it.',
    isError: true,
  });
});

Deno.test("writeFile() refuses writing onto a directory or a FIFO", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "dir"));
  await sh("mkfifo fifo", p.root);
  const dir = await call(writeFileTool, { path: "dir", content: "x" }, p.ctx);
  assert.deepEqual(dir, {
    content: '"dir" is a directory: give the path of a file inside it.',
    isError: true,
  });
  const fifo = await call(writeFileTool, { path: "fifo", content: "x" }, p.ctx);
  assert.ok(fifo.isError);
  assert.match(fifo.content, /not a regular file \(it is a FIFO/);
});

Deno.test("writeFile() refuses symlinks leading outside, dangling ones included, and changes nothing", async () => {
  await using p = await tempProject();
  await Deno.symlink(join(p.outside, "secret.txt"), join(p.root, "existing"));
  await Deno.symlink(join(p.outside, "planted.txt"), join(p.root, "dangling"));
  await Deno.symlink(p.outside, join(p.root, "out"));
  for (const path of ["existing", "dangling", "out/secret.txt", "out/new.txt", "out/new/dir/x.txt"]) {
    const result = await call(writeFileTool, { path, content: "pwned" }, p.ctx);
    assert.ok(result.isError, path);
    assert.match(result.content, /outside the project root/);
    assert.ok(!result.content.includes(p.outside));
  }
  assert.deepEqual(await entries(p.outside), ["secret.txt"]);
  assert.equal(await Deno.readTextFile(join(p.outside, "secret.txt")), "outside secret\n");
});

Deno.test("writeFile() writes through a dangling symlink that stays inside, keeping the link", async () => {
  await using p = await tempProject();
  await Deno.symlink("target.txt", join(p.root, "link"));
  const result = await call(writeFileTool, { path: "link", content: "hi" }, p.ctx);
  assert.deepEqual(result, { content: "Created target.txt (2 bytes)", isError: false });
  assert.equal(await Deno.readLink(join(p.root, "link")), "target.txt");
  assert.equal(await Deno.readTextFile(join(p.root, "target.txt")), "hi");
});

Deno.test("writeFile() refuses escapes: ../, absolute outside, /proj-evil, NUL, long paths", async () => {
  await using p = await tempProject();
  const cases: [string, RegExp][] = [
    ["../outside/x.txt", /outside the project root/],
    [join(p.outside, "x.txt"), /outside the project root/],
    [join(p.evil, "x.txt"), /outside the project root/],
    ["../proj-evil/x.txt", /outside the project root/],
    ["x\0.txt", /NUL byte/],
    ["d/".repeat(2500), /limit is 4096/],
  ];
  for (const [path, pattern] of cases) {
    const result = await call(writeFileTool, { path, content: "x" }, p.ctx);
    assert.ok(result.isError, path);
    assert.match(result.content, pattern);
  }
  assert.deepEqual(await entries(p.outside), ["secret.txt"]);
  assert.deepEqual(await entries(p.evil), ["secret.txt"]);
});

Deno.test("writeFile() takes ~ and %2e%2e as literal directory names inside the root", async () => {
  await using p = await tempProject();
  await call(writeFileTool, { path: "~/a.txt", content: "t" }, p.ctx);
  await call(writeFileTool, { path: "%2e%2e/b.txt", content: "e" }, p.ctx);
  assert.equal(await Deno.readTextFile(join(p.root, "~", "a.txt")), "t");
  assert.equal(await Deno.readTextFile(join(p.root, "%2e%2e", "b.txt")), "e");
});
