/** edit_file: replace pieces of text in a file, one edit or several in order, written once or not at all. */

import { hardLinkNote, refuseReadOnly } from "../fs/atomic_write.ts";
import { editorView, writeThrough } from "./_editor.ts";
import { withDiagnostics } from "./_diagnostics.ts";
import { applyEdit, describeMatch } from "./edit/match.ts";
import { diffSummary } from "./edit/line_delta.ts";
import { failureText } from "./edit/explain.ts";
import { withFileLock } from "../fs/file_lock.ts";
import { guardFresh, snapshotOfText } from "../fs/file_tracker.ts";
import {
  MAX_FILE_BYTES,
  prependBom,
  readTextFile,
  refuseTernState,
  resolveForRead,
  type TextFile,
} from "../fs/path_guard.ts";
import {
  type CallInspection,
  type FileTracker,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolResult,
} from "./tool.ts";

// What an ambiguous or missing match needs (more context, replace_all, a fresh read) its error says.
const description = `Replace old_text (copied from read_file minus line numbers; unique) with new_text in \
path, or edits [{old_text,new_text,replace_all?}] in order, all or nothing.`;

const editItem = {
  type: "object",
  properties: {
    old_text: { type: "string" },
    new_text: { type: "string" },
    replace_all: { type: "boolean" },
  },
  required: ["old_text", "new_text"],
  additionalProperties: false,
};

const parameters = {
  type: "object",
  properties: {
    path: { type: "string" },
    old_text: { type: "string" },
    new_text: { type: "string" },
    replace_all: { type: "boolean" },
    edits: { type: "array", items: editItem },
  },
  required: ["path"],
  additionalProperties: false,
};

/** What the model is shown: an edit's fields are named in the description, 156 bytes fewer per request. */
const modelParameters = {
  ...parameters,
  properties: { ...parameters.properties, edits: { type: "array" } },
};

/** One replacement, as given in `edits` or by the single old_text/new_text form. */
export type EditSpec = { old_text: string; new_text: string; replace_all?: boolean };

/** Arguments of edit_file, as validated against its schema: either old_text/new_text or edits. */
export type EditFileArgs = {
  path: string;
  old_text?: string;
  new_text?: string;
  replace_all?: boolean;
  edits?: EditSpec[];
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The edits to make; the either-or of the two forms is checked here (the schema subset cannot say it). */
function editsOf(args: EditFileArgs): EditSpec[] {
  const bad = (message: string) => new ToolError(message, "bad_arguments");
  const single = args.old_text !== undefined || args.new_text !== undefined;
  if (args.edits !== undefined) {
    if (single || args.replace_all !== undefined) {
      throw bad(
        `edit_file: give either old_text/new_text (one edit) or edits (several), not both: put every ` +
          `change in edits, each with its own replace_all if needed.`,
      );
    }
    if (args.edits.length === 0) {
      throw bad(`edit_file: edits is empty: give at least one {"old_text", "new_text"}.`);
    }
    return args.edits;
  }
  if (!single) {
    throw bad(
      `edit_file: give old_text and new_text for one edit, or edits: [{"old_text": ..., "new_text": ...}] ` +
        `for several.`,
    );
  }
  if (args.old_text === undefined) {
    throw bad(`edit_file: field "old_text" is required (string): the exact text to replace`);
  }
  if (args.new_text === undefined) {
    throw bad(
      `edit_file: field "new_text" is required (string): the text to put in its place (may be empty to delete)`,
    );
  }
  return [{ old_text: args.old_text, new_text: args.new_text, replace_all: args.replace_all }];
}

/** Names the edit in errors when there are several: "edit 2 of 3: ". */
function which(index: number, total: number): string {
  return total === 1 ? "" : `edit ${index + 1} of ${total}: `;
}

function checkShape(edits: EditSpec[]): void {
  const bad = (message: string) => new ToolError(message, "bad_arguments");
  edits.forEach((edit, i) => {
    if (edit.old_text === "") {
      throw bad(
        `${which(i, edits.length)}old_text is empty: give the exact text to replace ` +
          `(to create a file, use write_file).`,
      );
    }
    if (edit.old_text === edit.new_text) {
      throw bad(
        `${which(i, edits.length)}old_text and new_text are identical: the edit would change nothing.`,
      );
    }
  });
}

/** The edited text, the model's summary of it, and its line counts. */
interface Applied {
  text: string;
  summary: string;
  added: number;
  removed: number;
}

/** Applies the edits in order to the file's text, all or nothing; throws naming the edit that failed. */
function applyAll(file: TextFile, edits: EditSpec[]): Applied {
  let text = file.text;
  let added = 0;
  let removed = 0;
  let count = 0;
  const notes: string[] = [];
  for (const [i, edit] of edits.entries()) {
    const outcome = applyEdit(text, edit.old_text, edit.new_text, edit.replace_all ?? false);
    const tail = edits.length === 1 ? "" : ` No edit was applied and nothing was written` +
      (i === 0 ? "." : ` (line numbers are of the text after edit${i === 1 ? " 1" : `s 1–${i}`}).`);
    if (outcome.kind !== "edited") {
      const kind = outcome.kind === "not_found" ? "no_match" : "refused";
      throw new ToolError(which(i, edits.length) + failureText(outcome, text, edit, file.rel) + tail, kind);
    }
    if (outcome.text === text) {
      throw new ToolError(
        `${which(i, edits.length)}new_text is what is already there: the edit would change nothing.${tail}`,
        "bad_arguments",
      );
    }
    text = outcome.text;
    added += outcome.added;
    removed += outcome.removed;
    count += outcome.count;
    const how = describeMatch(outcome);
    if (how !== "") notes.push(edits.length === 1 ? `old_text ${how}` : `edit ${i + 1} ${how}`);
  }
  const what = edits.length === 1
    ? `replaced ${plural(count, "occurrence")}`
    : `applied ${edits.length} edits`;
  // One edit's own count is exact and cheap; several may touch the same lines, so diff the whole change.
  const delta = edits.length === 1 ? { added, removed } : diffSummary(file.text, text, { added, removed });
  const lines = `(+${delta.added} −${delta.removed} lines)`;
  const summary = `${what} ${lines}${notes.map((note) => `; ${note}`).join("")}`;
  return { text, summary, ...delta };
}

/** A dry run of the whole edit: every check the write makes, and the bytes it would write. */
export interface EditPlan extends Applied {
  file: TextFile;
  data: Uint8Array;
}

/**
 * Plans the edit against the file as it is now. `previous` is the dry run made for the approval preview: when
 * the file still holds exactly the text it was made against, its result is reused (matching a large file is
 * the costly part; reading and checking it again is not).
 */
async function plan(
  args: EditFileArgs,
  ctx: ToolContext,
  files?: FileTracker,
  previous?: EditPlan,
): Promise<EditPlan> {
  const edits = editsOf(args);
  checkShape(edits);
  const file = await editorView(ctx, await readTextFile(ctx.root, args.path));
  refuseTernState(file.rel);
  refuseReadOnly(file.rel, file.info);
  await guardFresh(files, file, () => snapshotOfText(file), "edit");
  const same = previous !== undefined && previous.file.real === file.real &&
    previous.file.text === file.text &&
    previous.file.bom === file.bom;
  const applied = same ? previous : applyAll(file, edits);
  const body = new TextEncoder().encode(applied.text);
  const data = file.bom ? prependBom(body) : body;
  if (data.length > MAX_FILE_BYTES) {
    const size = (data.length / (1024 * 1024)).toFixed(1);
    throw new ToolError(
      `the edited ${file.rel} would be ${size} MB, over the 10 MB limit: nothing was written.`,
      "too_large",
    );
  }
  return { ...applied, file, data };
}

/** Settings of edit_file. */
export interface EditFileOptions {
  /** The conversation's memory of files read (stale-write guard); absent = no guard. */
  files?: FileTracker;
}

/**
 * Builds the edit_file tool; its preview is a dry run of the very edit it will write, and that dry run is its
 * plan: `run` writes it when the file is unchanged, and plans again (or refuses a stale file) when not.
 */
export function createEditFileTool(options: EditFileOptions = {}): Tool<EditFileArgs, EditPlan> {
  const { files } = options;
  const inspect = async (
    args: EditFileArgs,
    ctx: ToolContext,
  ): Promise<CallInspection & { plan: EditPlan }> => {
    const planned = await plan(args, ctx, files);
    const { file, text } = planned;
    // While the call waits for approval, the file's language server (if any) starts and checks the file as is.
    ctx.diagnostics?.prepare?.(file.real, file.text);
    const preview = { kind: "diff" as const, path: file.rel, before: file.text, after: text, created: false };
    return { effect: "write", paths: [file.rel], summary: file.rel, preview, plan: planned };
  };
  const run = async (args: EditFileArgs, ctx: ToolContext, previous?: EditPlan): Promise<ToolResult> => {
    checkShape(editsOf(args));
    const { real } = await resolveForRead(ctx.root, args.path);
    const { result, file, text } = await withFileLock(real, async () => {
      const { file, text, data, summary, added, removed } = await plan(args, ctx, files, previous);
      const mode = file.info.mode === null ? undefined : file.info.mode & 0o7777;
      await writeThrough(ctx, file, data, { mode, files });
      const result: ToolResult = {
        content: `Edited ${file.rel}: ${summary}${hardLinkNote(file.rel, file.info, "edit")}`,
        details: { diff: { path: file.rel, added, removed, created: false } },
      };
      return { result, file, text };
    });
    // Outside the lock: the language server's answer may take a while, and nothing else waits on it.
    if (ctx.diagnostics === undefined) return result;
    return await withDiagnostics(ctx, result, {
      path: file.real,
      rel: file.rel,
      before: file.text,
      after: text,
    });
  };
  return {
    name: "edit_file",
    description,
    parameters,
    modelParameters,
    inspect,
    run,
  };
}
