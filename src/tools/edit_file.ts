/** edit_file: replace an exact piece of text in a file, once (or everywhere when asked). */

import { atomicWrite } from "./_atomic_write.ts";
import { applyEdit } from "./_edit_match.ts";
import { prependBom, readTextFile } from "./path_guard.ts";
import { type Tool, type ToolContext, ToolError } from "./tool.ts";

/** How many match locations an ambiguity error lists before summarising. */
const MAX_LISTED_MATCHES = 20;

const description = `Replace an exact piece of text in an existing file.
old_text must match the file exactly (whitespace and indentation included) and occur exactly once; include \
enough surrounding lines to make it unique, or set replace_all to replace every occurrence. Read the file with \
read_file first. Line endings are kept (CRLF files stay CRLF). To create a file, use write_file.`;

const parameters = {
  type: "object",
  properties: {
    path: { type: "string", description: "Path of the file, relative to the project root." },
    old_text: { type: "string", description: "The exact text to replace." },
    new_text: { type: "string", description: "The text to put in its place (may be empty to delete)." },
    replace_all: {
      type: "boolean",
      description: "Replace every occurrence instead of requiring exactly one. Default false.",
    },
  },
  required: ["path", "old_text", "new_text"],
  additionalProperties: false,
};

/** Arguments of edit_file, as validated against its schema. */
export type EditFileArgs = { path: string; old_text: string; new_text: string; replace_all?: boolean };

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function ambiguous(rel: string, lines: number[]): ToolError {
  const listed = lines.slice(0, MAX_LISTED_MATCHES).join(", ");
  const more = lines.length > MAX_LISTED_MATCHES ? `, and ${lines.length - MAX_LISTED_MATCHES} more` : "";
  return new ToolError(
    `old_text occurs ${lines.length} times in ${rel} (starting on lines ${listed}${more}). ` +
      `Add surrounding context to old_text so it matches exactly once, or set replace_all: true.`,
  );
}

async function run(args: EditFileArgs, ctx: ToolContext): Promise<string> {
  if (args.old_text === "") {
    throw new ToolError(
      `old_text is empty: give the exact text to replace (to create a file, use write_file).`,
    );
  }
  if (args.old_text === args.new_text) {
    throw new ToolError(`old_text and new_text are identical: the edit would change nothing.`);
  }
  const file = await readTextFile(ctx.root, args.path);
  const outcome = applyEdit(file.text, args.old_text, args.new_text, args.replace_all ?? false);
  if (outcome.kind === "not_found") {
    throw new ToolError(
      `old_text was not found in ${file.rel}. It must match exactly, including whitespace and indentation: ` +
        `read the file again with read_file and copy the text from it.`,
    );
  }
  if (outcome.kind === "ambiguous") throw ambiguous(file.rel, outcome.lines);
  const body = new TextEncoder().encode(outcome.text);
  const data = file.bom ? prependBom(body) : body;
  await atomicWrite(file.real, data, { mode: file.info.mode === null ? undefined : file.info.mode & 0o7777 });
  return `Edited ${file.rel}: replaced ${plural(outcome.count, "occurrence")} ` +
    `(+${outcome.added} −${outcome.removed} lines)`;
}

/** The edit_file tool. */
export const editFileTool: Tool<EditFileArgs> = {
  name: "edit_file",
  description,
  parameters,
  effect: "write",
  run,
};
