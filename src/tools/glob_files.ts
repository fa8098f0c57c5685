/** glob_files: find files in the project by a glob pattern on their paths. */

import { posix } from "../fs/path.ts";
import { resolvePath } from "../fs/path_guard.ts";
import { showPath } from "../fs/path_basics.ts";
import { rulesFor } from "./search/gitignore_rules.ts";
import { walkTree } from "./search/walk.ts";
import { loadPicomatch, type Picomatch } from "../fs/glob_matcher.ts";
import { inspectRead, where } from "./_read_inspect.ts";
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";

/** Paths returned when the model gives no max_results. */
export const DEFAULT_MAX_FILES = 200;

// What .gitignore hides and where max_results cut the list, a result says when it matters.
const description = `Up to max_results files under path matching pattern (e.g. **/*.ts).`;

const parameters = {
  type: "object",
  properties: {
    pattern: { type: "string" },
    path: { type: "string" },
    max_results: { type: "integer", minimum: 1, maximum: 5000 },
  },
  required: ["pattern"],
  additionalProperties: false,
};

/** Arguments of glob_files, as validated against its schema. */
export type GlobFilesArgs = { pattern: string; path?: string; max_results?: number };

/** The pattern relative to the search directory, or a refusal of one that leaves it. */
function cleanPattern(pattern: string): string {
  const clean = pattern.replace(/^(?:\.\/)+/, "");
  if (clean === "") throw new ToolError(`glob_files: field "pattern" is empty: send e.g. "**/*.ts".`);
  if (clean.startsWith("/") || clean.split("/").includes("..")) {
    throw new ToolError(
      `glob_files: field "pattern" ${showPath(pattern)} must stay inside path: give it relative to path ` +
        `(without a leading "/" or ".."), and put the directory in path instead.`,
    );
  }
  return clean;
}

/** Where the walk can start and how deep it must go: "src/*.ts" needs only src's own entries. */
function walkPlan(pattern: string, picomatch: Picomatch): { base: string; maxDepth?: number } {
  const scan = picomatch.scan(pattern);
  if (!scan.isGlob) {
    const dir = posix.dirname(pattern);
    return { base: dir === "." ? "" : dir, maxDepth: 1 };
  }
  const base = scan.base.replace(/\/+$/, "");
  const open = scan.glob.includes("**") || scan.isBrace || scan.isExtglob;
  return { base, maxDepth: open ? undefined : scan.glob.split("/").length };
}

/** Resolves the start of the walk; null when the pattern's fixed directory does not exist (no matches). */
async function startOf(root: string, dir: string, base: string): Promise<string | null> {
  if (base === "") return dir;
  const wanted = dir === "." ? base : `${dir}/${base}`;
  const found = await resolvePath(root, wanted).catch(() => null);
  if (found === null || found.info === null) return null;
  if (!found.info.isDirectory) return null;
  // Through a symlink the walk would report other paths than the pattern names: walk the plain way.
  return found.rel === wanted ? wanted : dir;
}

function notFound(pattern: string, where: string): string {
  const hint = !pattern.includes("/") && !pattern.includes("**")
    ? ` The pattern matches from the search directory down: use "**/${pattern}" to search subdirectories too.`
    : "";
  return `No files match ${JSON.stringify(pattern)} in ${where} (files ignored by .gitignore and ` +
    `directories like node_modules are skipped).${hint}`;
}

async function run(args: GlobFilesArgs, ctx: ToolContext): Promise<string | ToolResult> {
  const pattern = cleanPattern(args.pattern);
  const given = args.path ?? ".";
  const dir = await resolvePath(ctx.root, given);
  if (dir.info === null) {
    throw new ToolError(`glob_files: ${showPath(given)} not found: check it with list_dir.`, "not_found");
  }
  if (!dir.info.isDirectory) {
    throw new ToolError(
      `glob_files: ${showPath(dir.rel)} is not a directory: give the directory to search in.`,
    );
  }
  const picomatch = await loadPicomatch();
  let regex: RegExp;
  try {
    regex = picomatch.makeRe(pattern, { dot: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(`glob_files: field "pattern" is not a valid glob (${reason}).`);
  }
  // "**/*.ts" can only match a path ending in ".ts": that test is far cheaper than the glob's regex, and most
  // files of a tree fail it.
  const ending = /\*([^*?[\]{}()!+@/\\]+)$/.exec(pattern)?.[1];
  const where = dir.rel === "." ? "the project" : showPath(dir.rel);
  const plan = walkPlan(pattern, picomatch);
  const start = await startOf(ctx.root, dir.rel, plan.base);
  if (start === null) return notFound(args.pattern, where);
  const prefix = dir.rel === "." ? 0 : dir.rel.length + 1;
  const rules = await rulesFor(ctx.root, start);
  // The depth counts from the pattern's fixed directory; walking from elsewhere, it cannot be used.
  const maxDepth = start === dir.rel && plan.base !== "" ? undefined : plan.maxDepth;
  const found: string[] = [];
  const keepName = ending === undefined ? undefined : (name: string) => name.endsWith(ending);
  for await (const batch of walkTree(ctx.root, start, rules, { signal: ctx.signal, maxDepth, keepName })) {
    for (const entry of batch) {
      // What picomatch(pattern, { dot: true }) tests, without the two objects its matcher makes per call.
      const path = entry.rel.slice(prefix);
      if (path !== pattern && !regex.test(path)) continue;
      found.push(entry.kind === "symlink" ? `${entry.rel} (symlink)` : entry.rel);
    }
  }
  if (found.length === 0) return notFound(args.pattern, where);
  const max = args.max_results ?? DEFAULT_MAX_FILES;
  const details = { shown: { from: 1, to: Math.min(max, found.length), of: found.length, unit: "files" } };
  if (found.length <= max) return { content: found.join("\n"), details };
  const content = `${found.slice(0, max).join("\n")}\n[partial: showing ${max} of ${found.length} files. ` +
    `Narrow the search with path (a subdirectory) or a more specific pattern, or raise max_results (at most ` +
    `5000).]`;
  return { content, details };
}

/** The glob_files tool. */
export const globFilesTool: Tool<GlobFilesArgs> = {
  name: "glob_files",
  description,
  parameters,
  inspect: (args, ctx) => inspectRead(ctx.root, args.path, where(args.pattern, args.path)),
  run,
};
