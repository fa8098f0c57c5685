/** read_file: show a text file with line numbers, a page at a time. */

import { readTextFile } from "../fs/path_guard.ts";
import { showPath } from "../fs/path_basics.ts";
import { describeImage, isImageName, readImageFile } from "../fs/image_file.ts";
import { cutLine } from "./_truncate.ts";
import { snapshotOfText } from "../fs/file_tracker.ts";
import { inspectRead } from "./_read_inspect.ts";
import { editorView } from "./_editor.ts";
import { type FileTracker, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";

/** Most lines returned by one call. */
export const MAX_LINES = 2000;

/** Most characters returned by one call, so 2000 very long lines cannot flood the context. */
// Below the registry's 32,000-character spill threshold, so paging a spilled file never spills again; and
// small enough that a request carrying one page stays within 30 KB (issue 31's budget): JSON escapes the
// tabs, newlines and quotes of code, so 24,000 characters are about 25.3 KB on the wire.
export const MAX_PAGE_CHARS = 24_000;

// The lines come numbered (the output shows it, and edit_file's description says to drop the numbers).
const description = `Read text file path: limit lines (default ${MAX_LINES}) from line offset.`;

/** The description for a model that reads images (a text-only model's requests keep the one above). */
const imageDescription = `${description.replace("text file", "file").slice(0, -1)}; an image comes back as \
the image.`;

const parameters = {
  type: "object",
  properties: {
    path: { type: "string" },
    offset: { type: "integer", minimum: 1 },
    limit: { type: "integer", minimum: 1, maximum: MAX_LINES },
  },
  required: ["path"],
  additionalProperties: false,
};

/** Arguments of read_file, as validated against its schema. */
export type ReadFileArgs = { path: string; offset?: number; limit?: number };

/** Splits text into lines as an editor shows them: no empty last line after a final newline, no CR. */
function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => line.endsWith("\r") ? line.slice(0, -1) : line);
}

/**
 * An image file: the image itself for a model that reads images, else a refusal saying so (never its bytes
 * as text).
 */
async function readImage(args: ReadFileArgs, ctx: ToolContext, images: boolean): Promise<ToolResult> {
  const image = await readImageFile(ctx.root, args.path);
  const what = `${image.rel}: ${describeImage(image)}`;
  if (!images) {
    throw new ToolError(
      `${what}. The current model reads text only, so the image cannot be shown to it: ask the user what ` +
        "it shows, or they can switch to a model that reads images (/model).",
      "binary",
    );
  }
  const { mediaType, data, rel: name } = image;
  return { content: `${what}; the image is attached.`, images: [{ mediaType, data, name }] };
}

async function run(args: ReadFileArgs, ctx: ToolContext, files?: FileTracker): Promise<string | ToolResult> {
  const file = await editorView(ctx, await readTextFile(ctx.root, args.path));
  // Valid UTF-8 can still be binary (an ELF header is); grep_code skips such files for the same reason.
  if (file.text.includes("\0")) {
    throw new ToolError(
      `${showPath(file.rel)}: binary file, ${file.bytes} bytes (it contains NUL bytes).`,
      "binary",
    );
  }
  const lines = splitLines(file.text);
  const offset = args.offset ?? 1;
  if (offset > Math.max(lines.length, 1)) {
    const count = `${lines.length} line${lines.length === 1 ? "" : "s"}`;
    throw new ToolError(`offset ${offset} is past the end: ${file.rel} has ${count}.`, "bad_arguments");
  }
  // What the model has now seen, for edit_file's and write_file's stale-write guard; a page counts too,
  // as the whole file's snapshot: a change anywhere in it means the model's picture is out of date.
  files?.record(file.real, await snapshotOfText(file));
  if (file.text === "") return "(empty file)";
  const last = Math.min(lines.length, offset - 1 + (args.limit ?? MAX_LINES));
  const out: string[] = [];
  let chars = 0;
  let next = offset;
  for (; next <= last; next++) {
    const row = `${String(next).padStart(6)}\t${cutLine(lines[next - 1])}`;
    if (chars + row.length > MAX_PAGE_CHARS && out.length > 0) break;
    out.push(row);
    chars += row.length + 1;
  }
  const remaining = lines.length - next + 1;
  if (remaining > 0) {
    out.push(`(${remaining} more line${remaining === 1 ? "" : "s"}: call read_file with offset=${next})`);
  }
  const shown = { from: offset, to: next - 1, of: lines.length, unit: "lines" };
  return { content: out.join("\n"), details: { shown } };
}

/** Settings of read_file. */
export interface ReadFileOptions {
  /** Where what the model has seen is recorded, for the stale-write guard of edit_file and write_file. */
  files?: FileTracker;
  /** Whether the model now answering reads images (asked at each call: `/model` may change it). */
  images?: () => boolean;
}

/** Builds the read_file tool. */
export function createReadFileTool(options: ReadFileOptions = {}): Tool<ReadFileArgs> {
  const images = options.images ?? (() => false);
  return {
    name: "read_file",
    get description() {
      return images() ? imageDescription : description;
    },
    parameters,
    inspect: (args, ctx) => inspectRead(ctx.root, args.path, `${args.path}${pageLabel(args)}`),
    run: (args, ctx) =>
      isImageName(args.path) ? readImage(args, ctx, images()) : run(args, ctx, options.files),
  };
}

function pageLabel(args: ReadFileArgs): string {
  if (args.offset === undefined && args.limit === undefined) return "";
  const from = args.offset ?? 1;
  return args.limit === undefined ? ` (from line ${from})` : ` (lines ${from}–${from + args.limit - 1})`;
}
