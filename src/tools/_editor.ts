/**
 * The file tools' text through an editor when the context has one (`ToolContext.editor`): the guard has
 * already resolved and checked the path on disk; the text read and written is the editor's buffer.
 */
import { atomicWrite, type AtomicWriteOptions } from "../fs/atomic_write.ts";
import { type FileSnapshot, recordWrite, snapshotOf } from "../fs/file_tracker.ts";
import type { TextFile } from "../fs/path_guard.ts";
import { type FileTracker, type ToolContext, ToolError } from "./tool.ts";

/** `file` as the editor has it (unsaved changes included), or as read from disk without an editor. */
export async function editorView(ctx: ToolContext, file: TextFile): Promise<TextFile> {
  if (!ctx.editor) return file;
  const text = await editorCall(file.rel, "read", () => ctx.editor!.readTextFile(file.real));
  return { ...file, text, bom: false };
}

/** The snapshot of the editor's text of `file`, for the stale-write guard; null without an editor. */
export async function editorSnapshot(ctx: ToolContext, file: TextFile): Promise<FileSnapshot | null> {
  if (!ctx.editor) return null;
  const view = await editorView(ctx, file);
  return await snapshotOf(new TextEncoder().encode(view.text), file.info);
}

/** Writes `data` to `real` through the editor, or atomically to disk; then records it as seen. */
export async function writeThrough(
  ctx: ToolContext,
  target: { real: string; rel: string },
  data: Uint8Array,
  options: AtomicWriteOptions & { files?: FileTracker },
): Promise<void> {
  if (!ctx.editor) {
    await atomicWrite(target.real, data, options);
    return await recordWrite(options.files, target.real, data);
  }
  const text = new TextDecoder().decode(data);
  await editorCall(target.rel, "write", () => ctx.editor!.writeTextFile(target.real, text));
  // The editor may keep the change in its buffer only: what it holds now is what the model wrote.
  options.files?.record(target.real, await snapshotOf(data, { mtime: null }));
}

async function editorCall<T>(rel: string, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ToolError(`${rel}: the editor could not ${what} it (${why}).`, "io");
  }
}
