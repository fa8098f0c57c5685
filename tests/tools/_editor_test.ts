/** The file tools through an editor (ToolContext.editor, as `tern acp` gives them): buffers, not the disk. */
import { assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { tempProject } from "../support/temp_project.ts";
import { createFileTracker } from "../../src/fs/file_tracker.ts";
import { createReadFileTool } from "../../src/tools/read_file.ts";
import { createEditFileTool } from "../../src/tools/edit_file.ts";
import { createWriteFileTool } from "../../src/tools/write_file.ts";
import type { EditorFiles, ToolResult } from "../../src/tools/tool.ts";

/** An editor with open buffers (path → text); `asked` lists every path it was asked about. */
function fakeEditor(buffers: Map<string, string>): EditorFiles & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    readTextFile: (path) => {
      asked.push(path);
      return Promise.resolve(buffers.get(path) ?? Deno.readTextFileSync(path));
    },
    writeTextFile: (path, text) => {
      asked.push(path);
      buffers.set(path, text);
      return Promise.resolve();
    },
  };
}

Deno.test("read_file and edit_file work on the editor's unsaved buffer, and the disk stays as it was", async () => {
  await using project = await tempProject({ "a.txt": "on disk\n" });
  const path = `${project.root}/a.txt`;
  const buffers = new Map([[path, "unsaved buffer\n"]]);
  const ctx = { ...project.ctx, editor: fakeEditor(buffers) };
  const files = createFileTracker();
  const read = await createReadFileTool({ files }).run({ path: "a.txt" }, ctx) as ToolResult;
  assertStringIncludes(read.content, "unsaved buffer");
  const edit = createEditFileTool({ files });
  const args = { path: "a.txt", old_text: "unsaved", new_text: "edited" };
  const inspection = await edit.inspect(args, ctx);
  assertEquals(inspection.preview, {
    kind: "diff",
    path: "a.txt",
    before: "unsaved buffer\n",
    after: "edited buffer\n",
    created: false,
  });
  await edit.run(args, ctx, inspection.plan);
  assertEquals(buffers.get(path), "edited buffer\n");
  assertEquals(await Deno.readTextFile(path), "on disk\n");
  // The guard saw what tern wrote: a second edit needs no new read.
  await edit.run({ path: "a.txt", old_text: "edited", new_text: "again" }, ctx);
  assertEquals(buffers.get(path), "again buffer\n");
});

Deno.test("write_file through the editor refuses a buffer changed since the model read it", async () => {
  await using project = await tempProject({ "a.txt": "one\n" });
  const path = `${project.root}/a.txt`;
  const buffers = new Map([[path, "one\n"]]);
  const ctx = { ...project.ctx, editor: fakeEditor(buffers) };
  const files = createFileTracker();
  await createReadFileTool({ files }).run({ path: "a.txt" }, ctx);
  buffers.set(path, "the user typed this\n");
  const write = createWriteFileTool({ files });
  await assertRejects(
    () => write.run({ path: "a.txt", content: "two\n" }, ctx),
    Error,
    "changed since you read it",
  );
  assertEquals(buffers.get(path), "the user typed this\n");
});

Deno.test("the path guard decides before the editor is asked: a path outside the root never reaches it", async () => {
  await using project = await tempProject();
  const editor = fakeEditor(new Map());
  const ctx = { ...project.ctx, editor };
  const read = createReadFileTool();
  await assertRejects(() => read.run({ path: "../outside/secret.txt" }, ctx), Error, "outside");
  await assertRejects(() => createWriteFileTool().run({ path: "../outside/x.txt", content: "x" }, ctx));
  assertEquals(editor.asked, []);
});
