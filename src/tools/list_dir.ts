/** list_dir: list a directory's entries, marking directories, symlinks and special files. */

import { join, relative, resolve } from "../fs/path.ts";
import { OutsideRootError, resolvePath } from "../fs/path_guard.ts";
import { showPath } from "../fs/path_basics.ts";
import { cutLine, truncateMiddle } from "./_truncate.ts";
import { inspectRead } from "./_read_inspect.ts";
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";

/** Most entries listed by one call. */
export const MAX_ENTRIES = 500;

/** Longest entry name shown; file names are short, but a link target may be long. */
const MAX_ENTRY_CHARS = 300;

/** Characters returned at most: room for 500 ordinary names. */
const MAX_LISTING_CHARS = 40_000;

// Directories end with "/" in the listing, which shows it.
const description = `List path (default ".").`;

const parameters = {
  type: "object",
  properties: { path: { type: "string" } },
  additionalProperties: false,
};

/** Arguments of list_dir, as validated against its schema. */
export type ListDirArgs = { path?: string };

/** Shows a symlink without revealing where outside the project it points. */
async function describeLink(root: string, dir: string, name: string): Promise<string> {
  const target = relative(root, resolve(dir, await Deno.readLink(join(dir, name)))) || ".";
  try {
    // Resolving through the guard catches chains (a link to a link that leaves the project) too.
    const resolved = await resolvePath(root, target);
    return `${name} -> ${target}${resolved.info === null ? " (missing)" : ""}`;
  } catch (error) {
    if (error instanceof OutsideRootError) return `${name} -> (outside the project)`;
    return `${name}@ (cannot be followed)`;
  }
}

async function describe(root: string, dir: string, entry: Deno.DirEntry): Promise<string> {
  if (entry.isDirectory) return `${entry.name}/`;
  if (entry.isSymlink) return await describeLink(root, dir, entry.name);
  if (entry.isFile) return entry.name;
  const info = await Deno.lstat(join(dir, entry.name));
  if (info.isFifo) return `${entry.name} (fifo)`;
  if (info.isSocket) return `${entry.name} (socket)`;
  return `${entry.name} (device)`;
}

async function run(args: ListDirArgs, ctx: ToolContext): Promise<string | ToolResult> {
  const given = args.path ?? ".";
  const dir = await resolvePath(ctx.root, given);
  if (dir.info === null) {
    throw new ToolError(`${showPath(given)} not found: list its parent to check the name.`, "not_found");
  }
  if (dir.info.isFile) throw new ToolError(`${showPath(dir.rel)} is a file: use read_file.`);
  if (!dir.info.isDirectory) throw new ToolError(`${showPath(dir.rel)} is not a directory.`);
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir.real)) entries.push(entry);
  if (entries.length === 0) return "(empty directory)";
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const shown = entries.slice(0, MAX_ENTRIES);
  const lines = await Promise.all(
    shown.map(async (e) => cutLine(await describe(ctx.root, dir.real, e), MAX_ENTRY_CHARS)),
  );
  if (entries.length > MAX_ENTRIES) lines.push(`(${entries.length - MAX_ENTRIES} more entries not shown)`);
  const content = truncateMiddle(lines.join("\n"), MAX_LISTING_CHARS);
  return { content, details: { shown: { from: 1, to: shown.length, of: entries.length, unit: "entries" } } };
}

/** The list_dir tool. */
export const listDirTool: Tool<ListDirArgs> = {
  name: "list_dir",
  description,
  parameters,
  inspect: (args, ctx) => inspectRead(ctx.root, args.path),
  run,
};
