/**
 * edit_file on the cases peers' own edit test suites hold (opencode, pi, Aider), through the tool: line endings
 * new_text must take, copies read_file shows alike, indentation set aside, matches on one line, bare CRs.
 */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { call, editFileTool, tempProject } from "./_helpers.ts";

Deno.test("editFile() writes CRLF new_text into an LF file as LF, in every form of edit", async () => {
  await using p = await tempProject();
  const path = join(p.root, "lf.txt");
  await Deno.writeTextFile(path, "one\ntwo\nthree\none\n");
  const single = await call(editFileTool, { path: "lf.txt", old_text: "two", new_text: "2\r\n2b" }, p.ctx);
  assertStrictEquals(single.isError, false, single.content);
  assertStrictEquals(await Deno.readTextFile(path), "one\n2\n2b\nthree\none\n");
  await call(
    editFileTool,
    { path: "lf.txt", old_text: "one\n", new_text: "1\r\n1b\r\n", replace_all: true },
    p.ctx,
  );
  assertStrictEquals(await Deno.readTextFile(path), "1\n1b\n2\n2b\nthree\n1\n1b\n");
  const several = await call(editFileTool, {
    path: "lf.txt",
    edits: [{ old_text: "three", new_text: "3\r\n3b" }, { old_text: "2b\r\n", new_text: "" }],
  }, p.ctx);
  assertStrictEquals(several.isError, false, several.content);
  assertStrictEquals(await Deno.readTextFile(path), "1\n1b\n2\n3\n3b\n1\n1b\n");
});

Deno.test("editFile() writes LF new_text into a CRLF file as CRLF, with replace_all and edits too", async () => {
  await using p = await tempProject();
  const path = join(p.root, "win.txt");
  await Deno.writeTextFile(path, "a\r\nb\r\na\r\n");
  await call(editFileTool, { path: "win.txt", old_text: "a", new_text: "x\ny", replace_all: true }, p.ctx);
  assertStrictEquals(await Deno.readTextFile(path), "x\r\ny\r\nb\r\nx\r\ny\r\n");
  await call(editFileTool, { path: "win.txt", edits: [{ old_text: "b\n", new_text: "c\nd\n" }] }, p.ctx);
  assertStrictEquals(await Deno.readTextFile(path), "x\r\ny\r\nc\r\nd\r\nx\r\ny\r\n");
});

Deno.test("editFile() refuses a CRLF copy and an LF copy read_file shows alike, naming both", async () => {
  await using p = await tempProject();
  const path = join(p.root, "mixed.txt");
  const text = "start\r\nvalue = 1\r\nend\r\n\nstart\nvalue = 1\nend\n";
  await Deno.writeTextFile(path, text);
  const result = await call(editFileTool, {
    path: "mixed.txt",
    old_text: "start\nvalue = 1\n",
    new_text: "start\nvalue = 2\n",
  }, p.ctx);
  assertEquals(result, {
    content:
      "old_text occurs 2 times in mixed.txt (starting on lines 1 (CRLF), 5 (LF)). The file mixes CRLF " +
      "and LF line endings, which read_file shows alike, so copies that differ only in their line endings " +
      "count as the same text. Add surrounding context to old_text so it matches exactly once, or set " +
      "replace_all: true.",
    isError: true,
  });
  assertStrictEquals(await Deno.readTextFile(path), text);
});

Deno.test("editFile() applies an old_text that differs only in indentation, and says it re-indented", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.py");
  await Deno.writeTextFile(path, "class A:\n    def run(self):\n        go()\n        return 1\n");
  const result = await call(editFileTool, {
    path: "a.py",
    old_text: "def run(self):\n    go()\n    return 1",
    new_text: "def run(self):\n    stop()\n    return 2",
  }, p.ctx);
  assertEquals(result, {
    content: "Edited a.py: replaced 1 occurrence (+2 −2 lines); old_text matched once indentation was set " +
      "aside (new_text re-indented: 4 spaces added to each line)",
    isError: false,
  });
  assertStrictEquals(
    await Deno.readTextFile(path),
    "class A:\n    def run(self):\n        stop()\n        return 2\n",
  );
});

Deno.test("editFile() refuses an indentation-only match found in two places", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.py");
  const text = "def f():\n    x = 1\n    y = 2\ndef g():\n  x = 1\n  y = 2\n";
  await Deno.writeTextFile(path, text);
  const result = await call(editFileTool, { path: "a.py", old_text: "x = 1\ny = 2", new_text: "z" }, p.ctx);
  assertEquals(result, {
    content: "old_text occurs 2 times in a.py (starting on lines 2, 5; matched once indentation was set " +
      "aside). Add surrounding context to old_text so it matches exactly once.",
    isError: true,
  });
  assertStrictEquals(await Deno.readTextFile(path), text);
});

Deno.test("editFile() tells three matches on one line apart by column", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "pad x+1 x+1 x+1\n");
  const result = await call(editFileTool, { path: "a.txt", old_text: "x+1", new_text: "y" }, p.ctx);
  assertEquals(result, {
    content:
      "old_text occurs 3 times in a.txt (starting on line 1 col 5, line 1 col 9, line 1 col 13). Add " +
      "surrounding context to old_text so it matches exactly once, or set replace_all: true.",
    isError: true,
  });
});

Deno.test("editFile() names bare CR line breaks as the cause, and prints no raw CR", async () => {
  await using p = await tempProject();
  const path = join(p.root, "mac.txt");
  await Deno.writeTextFile(path, "one\rtwo\rthree\r");
  const result = await call(editFileTool, { path: "mac.txt", old_text: "one\ntwo", new_text: "1\n2" }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /mac\.txt breaks its lines with bare CR characters .*3 of them/);
  assertMatch(result.content, /write_file/);
  assert(!result.content.includes("\r"), JSON.stringify(result.content));
  assertStrictEquals(await Deno.readTextFile(path), "one\rtwo\rthree\r");
});

Deno.test("editFile() names a stray bare CR and shows its line without the raw character", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "log.txt"), "progress 10%\rprogress 100%\ndone here\n");
  const result = await call(editFileTool, {
    path: "log.txt",
    old_text: "progress 10%\nprogress 100%",
    new_text: "x",
  }, p.ctx);
  assert(result.isError);
  assertMatch(result.content, /log\.txt has 1 bare CR character/);
  assertMatch(result.content, /progress 10%\\rprogress 100%/);
  assert(!result.content.includes("\r"), JSON.stringify(result.content));
});

Deno.test("editFile() in a bare-CR file still makes an edit it can match, breaking lines with CR", async () => {
  await using p = await tempProject();
  const path = join(p.root, "mac.txt");
  await Deno.writeTextFile(path, "one\rtwo\r");
  const result = await call(editFileTool, { path: "mac.txt", old_text: "two", new_text: "2\n2b" }, p.ctx);
  assertStrictEquals(result.isError, false, result.content);
  assertStrictEquals(await Deno.readTextFile(path), "one\r2\r2b\r");
});
