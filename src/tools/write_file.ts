/** write_file: create or overwrite a file with the given content, atomically. */

import { atomicWrite, hardLinkNote, makeParentsChecked, refuseReadOnly } from "./_atomic_write.ts";
import { withFileLock } from "./_file_lock.ts";
import { guardFresh, recordWrite, snapshotOfPath } from "./file_tracker.ts";
import { hasBom, MAX_FILE_BYTES, openNoBlock, prependBom, resolveForWrite } from "./path_guard.ts";
import { type Tool, type ToolContext, ToolError } from "./tool.ts";

const description = `Create a file, or replace a whole file, with the given content.
Missing parent directories are created. Prefer edit_file to change part of an existing file: it is cheaper and \
safer. To replace an existing file, read it with read_file first. The path must be inside the project; content \
is at most 10 MB.`;

const parameters = {
  type: "object",
  properties: {
    path: { type: "string", description: "Path of the file, relative to the project root." },
    content: { type: "string", description: "The complete new content of the file." },
  },
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

async function writeLocked(args: WriteFileArgs, data: Uint8Array, ctx: ToolContext): Promise<string> {
  const target = await resolveForWrite(ctx.root, args.path);
  const existing = target.info;
  if (existing !== null) {
    refuseReadOnly(target.rel, existing);
    await guardFresh(ctx.files, target, () => snapshotOfPath(target.real), "overwrite");
  }
  // The model saw the file without its BOM (read_file strips it); keep it, as an editor would.
  if (existing !== null && !args.content.startsWith("\uFEFF") && await startsWithBom(target.real)) {
    data = prependBom(data);
  }
  if (existing === null) await makeParentsChecked(ctx.root, target.real, target.rel);
  const mode = existing?.mode == null ? undefined : existing.mode & 0o7777;
  await atomicWrite(target.real, data, { mode });
  await recordWrite(ctx.files, target.real, data);
  const note = existing === null ? "" : hardLinkNote(target.rel, existing, "write");
  return `${existing === null ? "Created" : "Overwrote"} ${target.rel} (${data.length} bytes)${note}`;
}

async function run(args: WriteFileArgs, ctx: ToolContext): Promise<string> {
  const data = new TextEncoder().encode(args.content);
  if (data.length > MAX_FILE_BYTES) {
    const size = (data.length / (1024 * 1024)).toFixed(1);
    throw new ToolError(
      `content is ${size} MB; write_file takes at most 10 MB (what read_file and edit_file can handle). ` +
        `Write a smaller file, or generate a large one with a command.`,
    );
  }
  // Resolved once for the lock's key (the real path), and again under the lock for the write itself.
  const { real } = await resolveForWrite(ctx.root, args.path);
  return await withFileLock(real, () => writeLocked(args, data, ctx));
}

/** The write_file tool. */
export const writeFileTool: Tool<WriteFileArgs> = {
  name: "write_file",
  description,
  parameters,
  effect: "write",
  run,
};
