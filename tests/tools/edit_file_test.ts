import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { createEditFileTool } from "../../src/tools/edit_file.ts";
import { join } from "node:path";
import { type EditFileArgs } from "../../src/tools/edit_file.ts";
import { createFileTracker } from "../../src/fs/file_tracker.ts";
import { validateArgs } from "../../src/tools/_validate.ts";
import {
  call,
  callResult,
  editFileTool,
  inspect,
  readFileTool,
  sh,
  tempProject,
  type TestContext,
} from "./_helpers.ts";

Deno.test("editFile() replaces a unique match and reports the lines changed", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.ts");
  await Deno.writeTextFile(path, "const a = 1;\nconst b = 2;\n");
  const result = await call(editFileTool, {
    path: "a.ts",
    old_text: "const b = 2;",
    new_text: "const b = 3;\nconst c = 4;",
  }, p.ctx);
  assertEquals(result, { content: "Edited a.ts: replaced 1 occurrence (+2 −1 lines)", isError: false });
  assertStrictEquals(await Deno.readTextFile(path), "const a = 1;\nconst b = 3;\nconst c = 4;\n");
});

Deno.test("editFile() says when old_text is not found and advises re-reading", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "hello\n");
  const result = await call(editFileTool, { path: "a.txt", old_text: "goodbye", new_text: "x" }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /old_text was not found in a.txt.*read the file again with read_file/s);
});

Deno.test("editFile() lists the lines of three matches and suggests context or replace_all", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.txt");
  await Deno.writeTextFile(path, "x = 1\ny = 2\nx = 1\n\nx = 1\n");
  const result = await call(editFileTool, { path: "a.txt", old_text: "x = 1", new_text: "x = 9" }, p.ctx);
  assertEquals(result, {
    content: "old_text occurs 3 times in a.txt (starting on lines 1, 3, 5). " +
      "Add surrounding context to old_text so it matches exactly once, or set replace_all: true.",
    isError: true,
  });
  assertStrictEquals(await Deno.readTextFile(path), "x = 1\ny = 2\nx = 1\n\nx = 1\n");
});

Deno.test("editFile() counts overlapping matches: 'aa' occurs twice in 'aaa'", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "aaa");
  const result = await call(editFileTool, { path: "a.txt", old_text: "aa", new_text: "b" }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /occurs 2 times/);
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
  assertEquals(result, { content: "Edited a.txt: replaced 3 occurrences (+3 −3 lines)", isError: false });
  assertStrictEquals(await Deno.readTextFile(path), "x = 9\ny = 2\nx = 9\nx = 9\n");
  await Deno.writeTextFile(path, "aaaa a");
  const overlap = await call(editFileTool, {
    path: "a.txt",
    old_text: "aa",
    new_text: "b",
    replace_all: true,
  }, p.ctx);
  assertMatch(overlap.content, /replaced 2 occurrences/);
  assertStrictEquals(await Deno.readTextFile(path), "bb a");
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
  assertEquals(result, {
    content: "Edited win.txt: replaced 1 occurrence (+3 −2 lines)",
    isError: false,
  });
  assertStrictEquals(await Deno.readTextFile(path), "1\r\n2\r\n2.5\r\nthree\r\n");
});

Deno.test("editFile() keeps a BOM and the file mode", async () => {
  await using p = await tempProject();
  const path = join(p.root, "bom.sh");
  await Deno.writeFile(path, new TextEncoder().encode("\uFEFFecho hi\n"));
  await Deno.chmod(path, 0o700);
  await call(editFileTool, { path: "bom.sh", old_text: "hi", new_text: "there" }, p.ctx);
  assertEquals(await Deno.readFile(path), new TextEncoder().encode("\uFEFFecho there\n"));
  assertStrictEquals((await Deno.stat(path)).mode! & 0o777, 0o700);
});

Deno.test("editFile() refuses an empty old_text, pointing to write_file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x");
  const result = await call(editFileTool, { path: "a.txt", old_text: "", new_text: "y" }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /old_text is empty.*write_file/);
});

Deno.test("editFile() refuses a no-op edit", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x");
  const result = await call(editFileTool, { path: "a.txt", old_text: "x", new_text: "x" }, p.ctx);
  assertEquals(result, {
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
  assert(result.isError);
  assertMatch(result.content, /binary file, 4 bytes/);
  assertEquals(await Deno.readFile(path), bytes);
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
    assert(result.isError, path);
    assertMatch(result.content, pattern);
  }
  assertStrictEquals(await Deno.readTextFile(join(p.outside, "secret.txt")), "outside secret\n");
});

function tracked(ctx: TestContext): TestContext {
  return { ...ctx, files: createFileTracker() };
}

Deno.test("editFile() edits an empty file never: it says the file is empty and points to write_file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "empty.txt"), "");
  assertEquals(await call(editFileTool, { path: "empty.txt", old_text: "x", new_text: "y" }, p.ctx), {
    content: "empty.txt is empty, so old_text cannot be found: use write_file to give it content.",
    isError: true,
  });
});

Deno.test("editFile() refuses a file that was never read in this conversation", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  await Deno.writeTextFile(join(p.root, "hello.txt"), "Hello World\n");
  assertEquals(
    await call(editFileTool, { path: "hello.txt", old_text: "World", new_text: "Agent" }, ctx),
    {
      content:
        "hello.txt has not been read in this conversation: read it first with read_file, then edit it.",
      isError: true,
    },
  );
  assertStrictEquals(await Deno.readTextFile(join(p.root, "hello.txt")), "Hello World\n");
});

Deno.test("editFile() refuses a file changed on disk after it was read, and works after reading again", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  const path = join(p.root, "hello.txt");
  await Deno.writeTextFile(path, "Hello World\n");
  await call(readFileTool, { path: "hello.txt" }, ctx);
  await Deno.writeTextFile(path, "Hello World, again\n");
  const stale = await call(editFileTool, { path: "hello.txt", old_text: "World", new_text: "Agent" }, ctx);
  assert(stale.isError);
  assertMatch(stale.content, /^hello.txt changed since you read it; read it again with read_file/);
  assertStrictEquals(await Deno.readTextFile(path), "Hello World, again\n");
  await call(readFileTool, { path: "hello.txt", offset: 1, limit: 1 }, ctx);
  const fresh = await call(editFileTool, { path: "hello.txt", old_text: "World", new_text: "Agent" }, ctx);
  assertStrictEquals(fresh.isError, false, fresh.content);
  assertStrictEquals(await Deno.readTextFile(path), "Hello Agent, again\n");
});

Deno.test("editFile() allows consecutive edits without reading again in between", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  await Deno.writeTextFile(join(p.root, "a.txt"), "one\ntwo\n");
  await call(readFileTool, { path: "a.txt" }, ctx);
  for (const [old_text, new_text] of [["one", "1"], ["two", "2"], ["1\n2", "1\n2\n3"]]) {
    const result = await call(editFileTool, { path: "a.txt", old_text, new_text }, ctx);
    assertStrictEquals(result.isError, false, result.content);
  }
  assertStrictEquals(await Deno.readTextFile(join(p.root, "a.txt")), "1\n2\n3\n");
});

Deno.test("editFile() applies all of ten concurrent edits to the same file", async () => {
  await using p = await tempProject();
  const ctx = tracked(p.ctx);
  const path = join(p.root, "markers.txt");
  const markers = [...Array(10).keys()].map((i) => `marker-${i}`);
  await Deno.writeTextFile(path, markers.join("\n") + "\n");
  await call(readFileTool, { path: "markers.txt" }, ctx);
  const results = await Promise.all(
    markers.map((marker) =>
      call(editFileTool, { path: "markers.txt", old_text: marker, new_text: `done-${marker}` }, ctx)
    ),
  );
  assertEquals(results.filter((result) => result.isError), []);
  assertStrictEquals(
    await Deno.readTextFile(path),
    markers.map((marker) => `done-${marker}`).join("\n") + "\n",
  );
});

Deno.test("editFile() matches curly quotes, NBSP and dashes after normalising, and says so", async () => {
  await using p = await tempProject();
  const path = join(p.root, "doc.md");
  await Deno.writeTextFile(path, "Title\nShe said “it’s\u00A0fine” — twice.\nEnd\n");
  const result = await call(editFileTool, {
    path: "doc.md",
    old_text: `She said "it's fine" - twice.`,
    new_text: `She said "fine".`,
  }, p.ctx);
  assertEquals(result, {
    content: "Edited doc.md: replaced 1 occurrence (+1 −1 lines); old_text matched after normalising " +
      "whitespace/quotes/dashes",
    isError: false,
  });
  assertStrictEquals(await Deno.readTextFile(path), 'Title\nShe said "fine".\nEnd\n');
});

Deno.test("editFile() refuses a normalised match that would cut a ligature in half", async () => {
  await using p = await tempProject();
  const path = join(p.root, "lig.txt");
  await Deno.writeTextFile(path, "a ﬁne day\n");
  const result = await call(editFileTool, { path: "lig.txt", old_text: "ine day", new_text: "x" }, p.ctx);
  assertEquals(result, {
    content:
      'old_text (matched after normalising whitespace/quotes/dashes) would start or end inside "ﬁ" on ' +
      'line 1, one character that normalising expands to "fi": the edit cannot cut it in half. Include the ' +
      "whole character in old_text, copied from the file.",
    isError: true,
  });
  assertStrictEquals(await Deno.readTextFile(path), "a ﬁne day\n");
});

Deno.test("editFile() strips read_file line-number prefixes copied into old_text and new_text", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.py");
  await Deno.writeTextFile(path, "def f():\n    return 1\n");
  const result = await call(editFileTool, {
    path: "a.py",
    old_text: "     1\tdef f():\n     2\t    return 1",
    new_text: "     1\tdef f():\n     2\t    return 2",
  }, p.ctx);
  assertEquals(result, {
    content: "Edited a.py: replaced 1 occurrence (+1 −1 lines); old_text matched after removing read_file " +
      "line-number prefixes",
    isError: false,
  });
  assertStrictEquals(await Deno.readTextFile(path), "def f():\n    return 2\n");
});

Deno.test("editFile() shows the most similar region with line numbers when old_text is not found", async () => {
  await using p = await tempProject();
  const lines = [...Array(30).keys()].map((i) => `let value${i} = ${i};`);
  lines[20] = "function greet(name) {";
  lines[21] = '  return "Hello, " + name;';
  lines[22] = "}";
  await Deno.writeTextFile(join(p.root, "a.js"), lines.join("\n") + "\n");
  const result = await call(editFileTool, {
    path: "a.js",
    old_text: 'function greet(name) {\n  return "Hello " + name;\n}',
    new_text: "x",
  }, p.ctx);
  assertEquals(result, {
    content: "old_text was not found in a.js. It must match exactly, including whitespace and indentation: " +
      "read the file again with read_file and copy the text from it.\n" +
      "The most similar text in the file is at lines 21–23:\n" +
      '    21\tfunction greet(name) {\n    22\t  return "Hello, " + name;\n    23\t}',
    isError: true,
  });
});

Deno.test("editFile() applies several edits in order and writes once", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.txt");
  await Deno.writeTextFile(path, "alpha\nbeta\ngamma\n");
  const result = await call(editFileTool, {
    path: "a.txt",
    edits: [
      { old_text: "alpha", new_text: "ALPHA" },
      { old_text: "ALPHA\nbeta", new_text: "ALPHA\nBETA\nbeta2" },
      { old_text: "a", new_text: "A", replace_all: true },
    ],
  }, p.ctx);
  assertEquals(result, { content: "Edited a.txt: applied 3 edits (+4 −3 lines)", isError: false });
  assertStrictEquals(await Deno.readTextFile(path), "ALPHA\nBETA\nbetA2\ngAmmA\n");
});

Deno.test("editFile() with several edits writes nothing when one fails, and names it", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.txt");
  await Deno.writeTextFile(path, "one\ntwo\nthree\n");
  const result = await call(editFileTool, {
    path: "a.txt",
    edits: [
      { old_text: "one", new_text: "1" },
      { old_text: "four", new_text: "4" },
      { old_text: "three", new_text: "3" },
    ],
  }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /^edit 2 of 3: old_text was not found in a.txt\./);
  assertMatch(
    result.content,
    /No edit was applied and nothing was written \(line numbers are of the text after edit 1\)\.$/,
  );
  assertStrictEquals(await Deno.readTextFile(path), "one\ntwo\nthree\n");
});

Deno.test("editFile() refuses a no-op entry in edits before touching the file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x y\n");
  const result = await call(editFileTool, {
    path: "a.txt",
    edits: [{ old_text: "x", new_text: "z" }, { old_text: "y", new_text: "y" }],
  }, p.ctx);
  assertEquals(result, {
    content: "edit 2 of 2: old_text and new_text are identical: the edit would change nothing.",
    isError: true,
  });
  assertStrictEquals(await Deno.readTextFile(join(p.root, "a.txt")), "x y\n");
});

Deno.test("editFile() refuses an edit whose replacement is already what the file holds", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), 'say "hi"\n');
  const result = await call(
    editFileTool,
    { path: "a.txt", old_text: "say “hi”", new_text: 'say "hi"' },
    p.ctx,
  );
  assertEquals(result, {
    content: "new_text is what is already there: the edit would change nothing.",
    isError: true,
  });
});

Deno.test("editFile() requires exactly one of old_text/new_text and edits", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x\n");
  const cases: [EditFileArgs, RegExp][] = [
    [{ path: "a.txt" }, /give old_text and new_text for one edit, or edits/],
    [{ path: "a.txt", new_text: "y" }, /field "old_text" is required/],
    [{ path: "a.txt", old_text: "x" }, /field "new_text" is required/],
    [{ path: "a.txt", old_text: "x", new_text: "y", edits: [] }, /not both/],
    [{ path: "a.txt", replace_all: true, edits: [{ old_text: "x", new_text: "y" }] }, /not both/],
    [{ path: "a.txt", edits: [] }, /edits is empty/],
    [{ path: "a.txt", edits: [{ old_text: "", new_text: "y" }] }, /old_text is empty/],
  ];
  for (const [args, pattern] of cases) {
    const result = await call(editFileTool, args, p.ctx);
    assert(result.isError, JSON.stringify(args));
    assertMatch(result.content, pattern);
  }
  assertStrictEquals(await Deno.readTextFile(join(p.root, "a.txt")), "x\n");
});

Deno.test("editFile() declares edits items the registry can validate", () => {
  const problems = validateArgs("edit_file", createEditFileTool().parameters, {
    path: "a.txt",
    edits: [{ old_text: "x" }, { old_text: "a", new_text: "b", extra: 1 }],
  });
  assertEquals(problems, [
    'edit_file: field "edits[0].new_text" is required (string)',
    'edit_file: unknown field "edits[1].extra"; the fields are: old_text, new_text, replace_all',
  ]);
});

Deno.test("editFile() reports that the edit replaced only this name of a hard-linked file", async () => {
  await using p = await tempProject();
  const path = join(p.root, "hello.txt");
  await Deno.writeTextFile(path, "Hello World\n");
  await Deno.link(path, join(p.root, "other.txt"));
  const result = await call(editFileTool, { path: "hello.txt", old_text: "World", new_text: "Agent" }, p.ctx);
  assertEquals(result, {
    content: "Edited hello.txt: replaced 1 occurrence (+1 −1 lines)\n" +
      "note: hello.txt has 2 hard links; the edit replaced this path's content only (the other links keep " +
      "the old content).",
    isError: false,
  });
  assertStrictEquals(await Deno.readTextFile(join(p.root, "other.txt")), "Hello World\n");
});

Deno.test("editFile() edits through a symlink inside the root, keeping the link", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "target.txt"), "a\n");
  await Deno.symlink("target.txt", join(p.root, "link.txt"));
  const result = await call(editFileTool, { path: "link.txt", old_text: "a", new_text: "b" }, p.ctx);
  assertStrictEquals(result.content, "Edited target.txt: replaced 1 occurrence (+1 −1 lines)");
  assertStrictEquals(await Deno.readLink(join(p.root, "link.txt")), "target.txt");
  assertStrictEquals(await Deno.readTextFile(join(p.root, "target.txt")), "b\n");
});

Deno.test("editFile() edits a 5 MB file and refuses an edit that would take it past 10 MB", async () => {
  await using p = await tempProject();
  const path = join(p.root, "big.txt");
  const line = "0123456789".repeat(10) + "\n";
  await Deno.writeTextFile(path, line.repeat(50_000) + "the end\n");
  const edited = await call(
    editFileTool,
    { path: "big.txt", old_text: "the end", new_text: "THE END" },
    p.ctx,
  );
  assertStrictEquals(edited.content, "Edited big.txt: replaced 1 occurrence (+1 −1 lines)");
  const grown = await call(editFileTool, {
    path: "big.txt",
    old_text: "THE END",
    new_text: "x".repeat(6_000_000),
  }, p.ctx);
  assertEquals(grown, {
    content: "the edited big.txt would be 10.5 MB, over the 10 MB limit: nothing was written.",
    isError: true,
  });
  assert((await Deno.readTextFile(path)).endsWith("THE END\n"));
});

Deno.test("editFile() does not suggest replace_all for an ambiguity found only by normalising", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "“a”\nb\n“a”\n");
  assertEquals(await call(editFileTool, { path: "a.txt", old_text: '"a"', new_text: "c" }, p.ctx), {
    content: "old_text occurs 2 times in a.txt (starting on lines 1, 3; matched after normalising " +
      "whitespace/quotes/dashes). Add surrounding context to old_text so it matches exactly once.",
    isError: true,
  });
});

Deno.test("editFile() leaves a read-only file unchanged and says how to allow the edit", async () => {
  await using p = await tempProject();
  const path = join(p.root, "locked.txt");
  await Deno.writeTextFile(path, "a\n");
  await Deno.chmod(path, 0o444);
  assertEquals(await call(editFileTool, { path: "locked.txt", old_text: "a", new_text: "b" }, p.ctx), {
    content:
      "locked.txt is read-only (mode 444), so it was left unchanged: if changing it is intended, make " +
      "it writable first (chmod u+w locked.txt).",
    isError: true,
  });
  assertStrictEquals(await Deno.readTextFile(path), "a\n");
});

Deno.test("editFile() refuses a 2 GB sparse file by its size and leaves it as it was", async () => {
  await using p = await tempProject();
  await sh("truncate -s 2G huge.log", p.root);
  assertEquals(await call(editFileTool, { path: "huge.log", old_text: "a", new_text: "b" }, p.ctx), {
    content: '"huge.log": file is 2048.0 MB; over the 10 MB limit.',
    isError: true,
  });
  assertStrictEquals((await Deno.stat(join(p.root, "huge.log"))).size, 2 * 1024 ** 3);
});

Deno.test("editFile() refuses a socket and a symlink loop, saying what they are", async () => {
  await using p = await tempProject();
  // The socket file exists while the listener is open (closing it removes the file).
  using _socket = Deno.listen({ transport: "unix", path: join(p.root, "sock") });
  await Deno.symlink("loop", join(p.root, "loop"));
  const edit = { old_text: "a", new_text: "b" };
  assertEquals(await call(editFileTool, { path: "sock", ...edit }, p.ctx), {
    content: '"sock" is not a regular file (it is a socket).',
    isError: true,
  });
  assertEquals(await call(editFileTool, { path: "loop", ...edit }, p.ctx), {
    content: '"loop": too many levels of symbolic links.',
    isError: true,
  });
});

Deno.test("editFile inspect() previews exactly what run() then writes: the whole file before and after", async () => {
  await using p = await tempProject();
  const ctx = { ...p.ctx, files: createFileTracker() };
  await Deno.writeTextFile(join(p.root, "w.txt"), "one\r\ntwo\r\nthree\r\n");
  await call(readFileTool, { path: "w.txt" }, ctx);
  const cases: EditFileArgs[] = [
    { path: "w.txt", old_text: "one\ntwo", new_text: "1\n2" }, // LF old_text on a CRLF file
    { path: "w.txt", edits: [{ old_text: "1", new_text: "10" }, { old_text: "three", new_text: "3" }] },
    { path: "w.txt", old_text: "2", new_text: "two", replace_all: true },
  ];
  for (const args of cases) {
    const seen = await inspect(editFileTool, args, ctx);
    assert("effect" in seen && seen.preview?.kind === "diff", JSON.stringify(seen));
    assertEquals([seen.effect, seen.paths], ["write", ["w.txt"]]);
    const before = await Deno.readTextFile(join(p.root, "w.txt"));
    assertStrictEquals(seen.preview.before, before);
    const result = await callResult(editFileTool, args, ctx);
    assertStrictEquals(result.error, undefined, result.content);
    assertStrictEquals(
      await Deno.readTextFile(join(p.root, "w.txt")),
      seen.preview.after,
      JSON.stringify(args),
    );
    assertStrictEquals(result.details?.diff?.path, "w.txt");
  }
  assertStrictEquals(await Deno.readTextFile(join(p.root, "w.txt")), "10\r\ntwo\r\n3\r\n");
});

Deno.test("editFile inspect() refuses what run() would refuse, so nobody is asked to approve it", async () => {
  await using p = await tempProject();
  const ctx = { ...p.ctx, files: createFileTracker() };
  await Deno.writeTextFile(join(p.root, "a.txt"), "x\nx\n");
  assertEquals(await inspect(editFileTool, { path: "a.txt", old_text: "x", new_text: "y" }, ctx), {
    refused: "a.txt has not been read in this conversation: read it first with read_file, then edit it.",
    kind: "stale",
  });
  await call(readFileTool, { path: "a.txt" }, ctx);
  const ambiguous = await inspect(editFileTool, { path: "a.txt", old_text: "x", new_text: "y" }, ctx);
  assertMatch("refused" in ambiguous ? ambiguous.refused : "", /old_text occurs 2 times in a.txt/);
  const missing = await inspect(editFileTool, { path: "a.txt", old_text: "zzz", new_text: "y" }, ctx);
  assertStrictEquals("kind" in missing && missing.kind, "no_match");
  const outside = await inspect(
    editFileTool,
    { path: "../outside/secret.txt", old_text: "a", new_text: "b" },
    ctx,
  );
  assertStrictEquals("kind" in outside && outside.kind, "outside_root");
  assertStrictEquals(await Deno.readTextFile(join(p.root, "a.txt")), "x\nx\n");
});
