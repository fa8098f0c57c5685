/** write_file: create or overwrite a file with the given content, atomically. */

import { hardLinkNote, makeParentsChecked, refuseReadOnly } from "../fs/atomic_write.ts";
import { editorSnapshot, editorView, writeThrough } from "./_editor.ts";
import { withDiagnostics } from "./_diagnostics.ts";
import { withFileLock } from "../fs/file_lock.ts";
import { guardFresh, snapshotOfPath } from "../fs/file_tracker.ts";
import { lineDelta } from "./edit/line_delta.ts";
import { hasBom, MAX_FILE_BYTES, prependBom, readTextFile, resolveForWrite } from "../fs/path_guard.ts";
import { openNoBlock } from "../fs/opened_file.ts";
import {
  type CallInspection,
  type FileTracker,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolResult,
} from "./tool.ts";

const description = `Write content to path (whole file; creates dirs).`;

const parameters = {
  type: "object",
  properties: { path: { type: "string" }, content: { type: "string" } },
  required: ["path", "content"],
  additionalProperties: false,
};

/** Arguments of write_file, as validated against its schema. */
export type WriteFileArgs = { path: string; content: string };

/** True when the file at `path` starts with a UTF-8 BOM; reads three bytes at most, never blocks. */
async function startsWithBom(path: string): Promise<boolean> {
  await using file = await openNoBlock(path);
  if (!file.info.isFile) return false;
  const head = new Uint8Array(3);
  let got = 0;
  while (got < 3) {
    const read = await file.read(head.subarray(got));
    if (read === null) break;
    got += read;
  }
  return got === 3 && hasBom(head);
}

function encode(content: string): Uint8Array {
  const data = new TextEncoder().encode(content);
  if (data.length > MAX_FILE_BYTES) {
    const size = (data.length / (1024 * 1024)).toFixed(1);
    throw new ToolError(
      `content is ${size} MB; write_file takes at most 10 MB (what read_file and edit_file can handle). ` +
        `Write a smaller file, or generate a large one with a command.`,
      "too_large",
    );
  }
  return data;
}

/** The target, checked as the write will check it: inside the root, writable, read first if it exists. */
async function checkedTarget(args: WriteFileArgs, ctx: ToolContext, files?: FileTracker) {
  const target = await resolveForWrite(ctx.root, args.path);
  if (target.info !== null) {
    refuseReadOnly(target.rel, target.info);
    const current = async () =>
      ctx.editor
        ? await editorSnapshot(ctx, await readTextFile(ctx.root, args.path))
        : await snapshotOfPath(target.real);
    await guardFresh(files, target, current, "overwrite");
  }
  return target;
}

/** The file's current text, or why it cannot be shown (binary, a secrets file, too large). */
async function currentText(ctx: ToolContext, path: string): Promise<{ text: string } | { why: string }> {
  try {
    return { text: (await editorView(ctx, await readTextFile(ctx.root, path))).text };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    // The guard words its refusals for the model; the first sentence is what a person needs.
    return { why: error.message.split(/(?<=\.)\s/)[0] };
  }
}

async function preview(args: WriteFileArgs, ctx: ToolContext, files?: FileTracker): Promise<CallInspection> {
  encode(args.content);
  const target = await checkedTarget(args, ctx, files);
  const path = target.rel;
  const base = { effect: "write" as const, paths: [path], summary: path };
  if (target.info === null) {
    return { ...base, preview: { kind: "diff", path, before: "", after: args.content, created: true } };
  }
  const current = await currentText(ctx, args.path);
  if ("why" in current) {
    return { ...base, preview: { kind: "write_blind", path, after: args.content, ...current } };
  }
  // While the call waits for approval, the file's language server (if any) starts and checks the file as is.
  ctx.diagnostics?.prepare?.(target.real, current.text);
  return {
    ...base,
    preview: { kind: "diff", path, before: current.text, after: args.content, created: false },
  };
}

/** A change for the language server to check, once the file's lock is released. */
type FileChange = { path: string; rel: string; before: string | null; after: string };

async function writeLocked(
  args: WriteFileArgs,
  data: Uint8Array,
  ctx: ToolContext,
  files?: FileTracker,
): Promise<ToolResult & { change?: FileChange }> {
  const target = await checkedTarget(args, ctx, files);
  const existing = target.info;
  const before = existing === null ? { text: "" } : await currentText(ctx, args.path);
  // The model saw the file without its BOM (read_file strips it); keep it, as an editor would.
  const bom = existing !== null && !ctx.editor && await startsWithBom(target.real);
  if (bom && !args.content.startsWith("\uFEFF")) {
    data = prependBom(data);
  }
  if (existing === null) await makeParentsChecked(ctx.root, target.real, target.rel);
  const mode = existing?.mode == null ? undefined : existing.mode & 0o7777;
  await writeThrough(ctx, target, data, { mode, files });
  const note = existing === null ? "" : hardLinkNote(target.rel, existing, "write");
  const content = `${
    existing === null ? "Created" : "Overwrote"
  } ${target.rel} (${data.length} bytes)${note}`;
  if ("why" in before) return { content };
  const delta = lineDelta(before.text, args.content);
  const result = { content, details: { diff: { path: target.rel, ...delta, created: existing === null } } };
  if (ctx.diagnostics === undefined) return result;
  const change = { path: target.real, rel: target.rel, before: existing === null ? null : before.text };
  return { ...result, change: { ...change, after: args.content } };
}

/** Settings of write_file. */
export interface WriteFileOptions {
  /** The conversation's memory of files read (stale-write guard); absent = no guard. */
  files?: FileTracker;
}

/** Builds the write_file tool; its preview is the whole file before and after. */
export function createWriteFileTool(options: WriteFileOptions = {}): Tool<WriteFileArgs> {
  const { files } = options;
  const run = async (args: WriteFileArgs, ctx: ToolContext): Promise<ToolResult> => {
    const data = encode(args.content);
    // Resolved once for the lock's key (the real path), and again under the lock for the write itself.
    const { real } = await resolveForWrite(ctx.root, args.path);
    const done = await withFileLock(real, () => writeLocked(args, data, ctx, files));
    if (done.change === undefined) return done;
    // Outside the lock: the language server's answer may take a while, and nothing else waits on it.
    const { change, ...result } = done;
    return await withDiagnostics(ctx, result, change);
  };
  return {
    name: "write_file",
    description,
    parameters,
    inspect: (args, ctx) => preview(args, ctx, files),
    run,
  };
}
