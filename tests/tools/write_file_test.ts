import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { createFileTracker } from "../../src/fs/file_tracker.ts";
import {
  call,
  callResult,
  editFileTool,
  inspect,
  readFileTool,
  sh,
  tempProject,
  type TestContext,
  writeFileTool,
} from "./_helpers.ts";

async function entries(dir: string): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("writeFile() creates a file and reports its size", async () => {
  await using p = await tempProject();
  assertEquals(await call(writeFileTool, { path: "a.txt", content: "héllo\n" }, p.ctx), {
    content: "Created a.txt (7 bytes)",
    isError: false,
  });
  assertStrictEquals(await Deno.readTextFile(join(p.root, "a.txt")), "héllo\n");
});

Deno.test("writeFile() creates missing nested directories", async () => {
  await using p = await tempProject();
  const result = await call(writeFileTool, { path: "src/deep/er/x.ts", content: "x" }, p.ctx);
  assertEquals(result, { content: "Created src/deep/er/x.ts (1 bytes)", isError: false });
  assertStrictEquals(await Deno.readTextFile(join(p.root, "src/deep/er/x.ts")), "x");
});

Deno.test("writeFile() overwrites atomically, keeping the mode and leaving no temp file", async () => {
  await using p = await tempProject();
  const path = join(p.root, "run.sh");
  await Deno.writeTextFile(path, "old");
  await Deno.chmod(path, 0o751);
  const result = await call(writeFileTool, { path: "run.sh", content: "new content" }, p.ctx);
  assertEquals(result, { content: "Overwrote run.sh (11 bytes)", isError: false });
  assertStrictEquals(await Deno.readTextFile(path), "new content");
  assertStrictEquals((await Deno.stat(path)).mode! & 0o777, 0o751);
  assertEquals(await entries(p.root), ["run.sh"]);
});

Deno.test("writeFile() keeps the BOM of the file it overwrites", async () => {
  await using p = await tempProject();
  const path = join(p.root, "bom.txt");
  await Deno.writeFile(path, new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
  await call(writeFileTool, { path: "bom.txt", content: "b" }, p.ctx);
  assertEquals(await Deno.readFile(path), new Uint8Array([0xef, 0xbb, 0xbf, 0x62]));
});

Deno.test("writeFile() refuses when a path component is a file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "file.txt"), "x");
  assertEquals(await call(writeFileTool, { path: "file.txt/sub/a.txt", content: "y" }, p.ctx), {
    content: '"file.txt/sub/a.txt": "file.txt" is a file, not a directory, so nothing can be inside it.',
    isError: true,
  });
});

Deno.test("writeFile() refuses writing onto a directory or a FIFO", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "dir"));
  await sh("mkfifo fifo", p.root);
  const dir = await call(writeFileTool, { path: "dir", content: "x" }, p.ctx);
  assertEquals(dir, {
    content: '"dir" is a directory: give the path of a file inside it.',
    isError: true,
  });
  const fifo = await call(writeFileTool, { path: "fifo", content: "x" }, p.ctx);
  assert(fifo.isError);
  assertMatch(fifo.content, /not a regular file \(it is a FIFO/);
});

Deno.test("writeFile() refuses symlinks leading outside, dangling ones included, and changes nothing", async () => {
  await using p = await tempProject();
  await Deno.symlink(join(p.outside, "secret.txt"), join(p.root, "existing"));
  await Deno.symlink(join(p.outside, "planted.txt"), join(p.root, "dangling"));
  await Deno.symlink(p.outside, join(p.root, "out"));
  for (const path of ["existing", "dangling", "out/secret.txt", "out/new.txt", "out/new/dir/x.txt"]) {
    const result = await call(writeFileTool, { path, content: "pwned" }, p.ctx);
    assert(result.isError, path);
    assertMatch(result.content, /outside the project root/);
    assert(!result.content.includes(p.outside));
  }
  assertEquals(await entries(p.outside), ["secret.txt"]);
  assertStrictEquals(await Deno.readTextFile(join(p.outside, "secret.txt")), "outside secret\n");
});

Deno.test("writeFile() writes through a dangling symlink that stays inside, keeping the link", async () => {
  await using p = await tempProject();
  await Deno.symlink("target.txt", join(p.root, "link"));
  const result = await call(writeFileTool, { path: "link", content: "hi" }, p.ctx);
  assertEquals(result, { content: "Created target.txt (2 bytes)", isError: false });
  assertStrictEquals(await Deno.readLink(join(p.root, "link")), "target.txt");
  assertStrictEquals(await Deno.readTextFile(join(p.root, "target.txt")), "hi");
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
    assert(result.isError, path);
    assertMatch(result.content, pattern);
  }
  assertEquals(await entries(p.outside), ["secret.txt"]);
  assertEquals(await entries(p.evil), ["secret.txt"]);
});

Deno.test("writeFile() takes ~ and %2e%2e as literal directory names inside the root", async () => {
  await using p = await tempProject();
  await call(writeFileTool, { path: "~/a.txt", content: "t" }, p.ctx);
  await call(writeFileTool, { path: "%2e%2e/b.txt", content: "e" }, p.ctx);
  assertStrictEquals(await Deno.readTextFile(join(p.root, "~", "a.txt")), "t");
  assertStrictEquals(await Deno.readTextFile(join(p.root, "%2e%2e", "b.txt")), "e");
});

function tracked(ctx: TestContext): TestContext {
  return { ...ctx, files: createFileTracker() };
}

Deno.test("writeFile() refuses to overwrite an existing file that was never read, and creates new ones freely", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  await Deno.writeTextFile(join(p.root, "notes.txt"), "mine\n");
  assertEquals(await call(writeFileTool, { path: "notes.txt", content: "theirs\n" }, ctx), {
    content: "notes.txt already exists and has not been read in this conversation: read it first with " +
      "read_file, then write it (to change part of it, use edit_file).",
    isError: true,
  });
  assertStrictEquals(await Deno.readTextFile(join(p.root, "notes.txt")), "mine\n");
  const created = await call(writeFileTool, { path: "new/dir/a.txt", content: "x" }, ctx);
  assertEquals(created, { content: "Created new/dir/a.txt (1 bytes)", isError: false });
});

Deno.test("writeFile() overwrites a file after it was read, and again after its own write", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  await Deno.writeTextFile(join(p.root, "notes.txt"), "mine\n");
  await call(readFileTool, { path: "notes.txt" }, ctx);
  for (const content of ["second\n", "third\n"]) {
    const result = await call(writeFileTool, { path: "notes.txt", content }, ctx);
    assertStrictEquals(result.isError, false, result.content);
  }
  assertStrictEquals(await Deno.readTextFile(join(p.root, "notes.txt")), "third\n");
});

Deno.test("writeFile() refuses to overwrite a file changed on disk after it was read", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  const path = join(p.root, "hello.txt");
  await Deno.writeTextFile(path, "Hello World\n");
  await call(readFileTool, { path: "hello.txt" }, ctx);
  await Deno.writeTextFile(path, "Hello World!\n");
  const result = await call(writeFileTool, { path: "hello.txt", content: "replaced\n" }, ctx);
  assert(result.isError);
  assertMatch(
    result.content,
    /^hello.txt changed since you read it; read it again with read_file, then overwrite it/,
  );
  assertStrictEquals(await Deno.readTextFile(path), "Hello World!\n");
});

Deno.test("writeFile() refuses to overwrite a never-read file of Latin-1 bytes", async () => {
  await using p = await tempProject();
  const path = join(p.root, "latin1.txt");
  await Deno.writeFile(path, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  const result = await call(writeFileTool, { path: "latin1.txt", content: "café" }, tracked(p.ctx));
  assert(result.isError);
  assertMatch(result.content, /has not been read in this conversation/);
  assertEquals(await Deno.readFile(path), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
});

Deno.test("writeFile() checks its own earlier write by hash, even for a file read_file will not show", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  await call(writeFileTool, { path: ".env.local", content: "A=1\n" }, ctx);
  const again = await call(writeFileTool, { path: ".env.local", content: "A=2\n" }, ctx);
  assertStrictEquals(again.isError, false, again.content);
  await Deno.writeTextFile(join(p.root, ".env.local"), "A=3\n");
  const stale = await call(writeFileTool, { path: ".env.local", content: "A=4\n" }, ctx);
  assertMatch(stale.content, /changed since you read it/);
});

Deno.test("writeFile() refuses 50 MB of content and writes nothing", async () => {
  await using p = await tempProject();
  const result = await call(
    writeFileTool,
    { path: "huge.txt", content: "x".repeat(50 * 1024 * 1024) },
    p.ctx,
  );
  assertEquals(result, {
    content:
      "content is 50.0 MB; write_file takes at most 10 MB (what read_file and edit_file can handle). " +
      "Write a smaller file, or generate a large one with a command.",
    isError: true,
  });
  assertEquals(await entries(p.root), []);
});

Deno.test("writeFile() reports that it replaced only this name of a hard-linked file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "old\n");
  await Deno.link(join(p.root, "a.txt"), join(p.root, "b.txt"));
  assertEquals(await call(writeFileTool, { path: "a.txt", content: "new\n" }, p.ctx), {
    content:
      "Overwrote a.txt (4 bytes)\nnote: a.txt has 2 hard links; the write replaced this path's content " +
      "only (the other links keep the old content).",
    isError: false,
  });
  assertStrictEquals(await Deno.readTextFile(join(p.root, "b.txt")), "old\n");
});

Deno.test("writeFile() applies concurrent writes to one file one after another, none torn", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  const contents = [...Array(10).keys()].map((i) => `version ${i}\n`.repeat(1000));
  const results = await Promise.all(
    contents.map((content) => call(writeFileTool, { path: "a.txt", content }, ctx)),
  );
  assertEquals(results.filter((result) => result.isError), []);
  assertStrictEquals(results.filter((result) => result.content.startsWith("Created")).length, 1);
  assert(contents.includes(await Deno.readTextFile(join(p.root, "a.txt"))));
});

Deno.test("writeFile() leaves a read-only target file unchanged", async () => {
  await using p = await tempProject();
  const path = join(p.root, "locked.txt");
  await Deno.writeTextFile(path, "a\n");
  await Deno.chmod(path, 0o400);
  const result = await call(writeFileTool, { path: "locked.txt", content: "b\n" }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /^locked.txt is read-only \(mode 400\)/);
  assertStrictEquals(await Deno.readTextFile(path), "a\n");
});

Deno.test("writeFile() refuses a socket, a symlink loop and a link to /dev/zero, writing nothing", async () => {
  await using p = await tempProject();
  // The socket file exists while the listener is open (closing it removes the file).
  using _socket = Deno.listen({ transport: "unix", path: join(p.root, "sock") });
  await Deno.symlink("loop", join(p.root, "loop"));
  await Deno.symlink("/dev/zero", join(p.root, "zero"));
  const cases: [string, RegExp][] = [
    ["sock", /^"sock" is not a regular file \(it is a socket\): it cannot be written\.$/],
    ["loop", /^"loop": too many levels of symbolic links\.$/],
    ["loop/inside.txt", /^"loop\/inside.txt": too many levels of symbolic links\.$/],
    ["zero", /^"zero" is outside the project root/],
  ];
  for (const [path, pattern] of cases) {
    const result = await call(writeFileTool, { path, content: "x" }, p.ctx);
    assertStrictEquals(result.isError, true, path);
    assertMatch(result.content, pattern);
  }
  assertEquals((await entries(p.root)).sort(), ["loop", "sock", "zero"]);
});

Deno.test("writeFile inspect() shows the file before and after, or a new file, with paths the guard resolved", async () => {
  await using p = await tempProject();
  const ctx = { ...p.ctx, files: createFileTracker() };
  await Deno.writeTextFile(join(p.root, "a.txt"), "old line\n");
  await Deno.mkdir(join(p.root, ".git"));
  await Deno.symlink(".git", join(p.root, "hooks-link"));
  await call(readFileTool, { path: "a.txt" }, ctx);
  assertEquals(await inspect(writeFileTool, { path: "a.txt", content: "new line\n" }, ctx), {
    effect: "write",
    paths: ["a.txt"],
    summary: "a.txt",
    preview: { kind: "diff", path: "a.txt", before: "old line\n", after: "new line\n", created: false },
  });
  const created = await inspect(writeFileTool, { path: "dir/new.txt", content: "hi\n" }, ctx);
  assertEquals("effect" in created && created.preview, {
    kind: "diff",
    path: "dir/new.txt",
    before: "",
    after: "hi\n",
    created: true,
  });
  // A link cannot hide where the write lands: approval sees .git/config.
  const linked = await inspect(writeFileTool, { path: "hooks-link/config", content: "x" }, ctx);
  assertEquals("effect" in linked && linked.paths, [".git/config"]);
  const result = await callResult(writeFileTool, { path: "a.txt", content: "new line\nmore\n" }, ctx);
  assertEquals(result.details, { diff: { path: "a.txt", added: 2, removed: 1, created: false } });
});

Deno.test("writeFile inspect() never shows a file outside the root or a binary one, and says why", async () => {
  await using p = await tempProject();
  const ctx = { ...p.ctx, files: createFileTracker() };
  await Deno.writeFile(join(p.root, "bin.dat"), new Uint8Array([0xff, 0xfe, 0x00, 0x80]));
  await Deno.symlink(join(p.outside, "secret.txt"), join(p.root, "link.txt"));
  const viaLink = await inspect(writeFileTool, { path: "link.txt", content: "x" }, ctx);
  assertStrictEquals("kind" in viaLink && viaLink.kind, "outside_root");
  assert(!JSON.stringify(viaLink).includes("outside secret"));
  const binary = await inspect(writeFileTool, { path: "bin.dat", content: "x" }, p.ctx);
  assert("effect" in binary && binary.preview?.kind === "write_blind", JSON.stringify(binary));
  assertMatch(binary.preview.why, /binary file/);
  assertStrictEquals(binary.preview.after, "x");
});

Deno.test("write_file and edit_file never write tern's own state, even through a link", async () => {
  await using p = await tempProject({ ".tern/local/trust.json": '{"decision":"refused"}\n' });
  await Deno.symlink(".tern/local", join(p.root, "state"));
  for (
    const path of [".tern/local/trust.json", "state/trust.json", ".tern/local/settings.json", ".TERN/Local/x"]
  ) {
    const result = await call(writeFileTool, { path, content: '{"decision":"trusted"}' }, p.ctx);
    assert(result.isError, path);
    assertMatch(result.content, /is tern's own state: no tool may write it/);
  }
  const read = await call(readFileTool, { path: ".tern/local/trust.json" }, p.ctx);
  assert(!read.isError);
  const edit = await call(
    editFileTool,
    { path: ".tern/local/trust.json", old_text: "refused", new_text: "trusted" },
    p.ctx,
  );
  assertMatch(edit.content, /is tern's own state: no tool may write it/);
  assertEquals(await Deno.readTextFile(join(p.root, ".tern/local/trust.json")), '{"decision":"refused"}\n');
});
