/**
 * edit_file and write_file with a diagnostics service in their context (a recording stand-in for the
 * language servers): the dry run readies the check with the file as it is, the write is on disk and its lock
 * released before the check, and what the service says is appended to the result and set in its details.
 */
import { assertEquals } from "../support/assert.ts";
import { tempProject } from "../support/temp_project.ts";
import { createEditFileTool } from "../../src/tools/edit_file.ts";
import { createWriteFileTool } from "../../src/tools/write_file.ts";
import type { FileDiagnostics, ToolContext, ToolResult } from "../../src/tools/tool.ts";
import type { DiagnosticsOutcome } from "../../src/tools/lsp/report.ts";

const CHECKED: DiagnosticsOutcome = {
  state: "checked",
  server: "fake",
  introduced: [{ line: 0, character: 4, severity: 1, message: "bad", code: "E1", source: "fake" }],
  fixed: 0,
  errors: 1,
};

/** A service that records what it was asked and what the disk held then, and answers `outcome`. */
function recorder(outcome: DiagnosticsOutcome | undefined) {
  const seen: unknown[] = [];
  const service: FileDiagnostics = {
    prepare: (path, before) => seen.push({ prepare: path, before }),
    after: async (path, change) => {
      seen.push({ checked: path, change, disk: await Deno.readTextFile(path) });
      return outcome;
    },
  };
  return { seen, service };
}

async function inspectAndRun<A>(
  tool: ReturnType<typeof createWriteFileTool> | ReturnType<typeof createEditFileTool>,
  args: A,
  ctx: ToolContext,
) {
  const { plan } = await (tool.inspect as (a: A, c: ToolContext) => Promise<{ plan?: unknown }>)(args, ctx);
  return await (tool.run as (a: A, c: ToolContext, p?: unknown) => Promise<ToolResult>)(args, ctx, plan);
}

Deno.test("edit_file readies the check at its dry run and appends what the server said after the write", async () => {
  await using project = await tempProject({ "a.ts": "let x = 1;\n" });
  const { seen, service } = recorder(CHECKED);
  const ctx = { ...project.ctx, diagnostics: service };
  const path = `${project.root}/a.ts`;
  const result = await inspectAndRun(
    createEditFileTool(),
    { path: "a.ts", old_text: "1", new_text: "'1'" },
    ctx,
  );
  assertEquals(seen, [
    { prepare: path, before: "let x = 1;\n" },
    {
      checked: path,
      change: { path, rel: "a.ts", before: "let x = 1;\n", after: "let x = '1';\n" },
      disk: "let x = '1';\n",
    },
  ]);
  assertEquals(result.content.split("\n"), [
    "Edited a.ts: replaced 1 occurrence (+1 −1 lines)",
    "Diagnostics (fake): 1 new error:",
    "  a.ts:1:5: bad [fake E1]",
  ]);
  assertEquals(result.details, {
    diff: { path: "a.ts", added: 1, removed: 1, created: false },
    diagnostics: CHECKED,
  });
  // The lock is free: another edit of the file goes through at once.
  await inspectAndRun(createEditFileTool(), { path: "a.ts", old_text: "x", new_text: "y" }, project.ctx);
});

Deno.test("write_file checks a new file without a baseline, and an overwrite against the old text", async () => {
  await using project = await tempProject({ "old.py": "a = 1\n" });
  const { seen, service } = recorder(undefined);
  const ctx = { ...project.ctx, diagnostics: service };
  const created = await inspectAndRun(createWriteFileTool(), { path: "new.py", content: "b = 2\n" }, ctx);
  const overwritten = await inspectAndRun(createWriteFileTool(), { path: "old.py", content: "a = 3\n" }, ctx);
  const root = project.root;
  assertEquals(seen, [
    {
      checked: `${root}/new.py`,
      change: { path: `${root}/new.py`, rel: "new.py", before: null, after: "b = 2\n" },
      disk: "b = 2\n",
    },
    { prepare: `${root}/old.py`, before: "a = 1\n" },
    {
      checked: `${root}/old.py`,
      change: { path: `${root}/old.py`, rel: "old.py", before: "a = 1\n", after: "a = 3\n" },
      disk: "a = 3\n",
    },
  ]);
  // No server speaks for the file: the result is what it always was.
  assertEquals([created.content, overwritten.content], [
    "Created new.py (6 bytes)",
    "Overwrote old.py (6 bytes)",
  ]);
  assertEquals(overwritten.details, { diff: { path: "old.py", added: 1, removed: 1, created: false } });
});
