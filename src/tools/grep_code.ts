/** grep_code: search file contents in the project by regular expression, with ripgrep or a built-in search. */

import { resolveForRead, resolvePath } from "../fs/path_guard.ts";
import { showPath } from "../fs/path_basics.ts";
import { builtinSearch, ripgrepSearch } from "./search/grep.ts";
import { type LineEvent, ripgrepAvailable, type SearchSpec } from "./search/ripgrep.ts";
import { cutAround } from "./_truncate.ts";
import { GitignoreRules, rulesFor } from "./search/gitignore_rules.ts";
import { readSearchable } from "./search/searchable_file.ts";
import { inspectRead, where } from "./_read_inspect.ts";
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";

/** Matching lines returned when the model gives no max_results. */
export const DEFAULT_MAX_MATCHES = 100;

/** Longest line shown; a longer one is cut to a window around its first match. */
export const MAX_GREP_LINE_CHARS = 300;

// The output's form (path:line:text), a cut at max_results and what .gitignore hides show in the result.
const description = `Up to max_results matches ±context_lines of pattern (ripgrep regex; literal: plain \
text; case_sensitive default true) under path; glob filters files (*.ts, !*.md).`;

const parameters = {
  type: "object",
  properties: {
    pattern: { type: "string" },
    path: { type: "string" },
    glob: { type: "string" },
    literal: { type: "boolean" },
    case_sensitive: { type: "boolean" },
    context_lines: { type: "integer", minimum: 0, maximum: 10 },
    max_results: { type: "integer", minimum: 1, maximum: 1000 },
  },
  required: ["pattern"],
  additionalProperties: false,
};

/** Arguments of grep_code, as validated against its schema. */
export type GrepCodeArgs = {
  pattern: string;
  path?: string;
  glob?: string;
  literal?: boolean;
  case_sensitive?: boolean;
  context_lines?: number;
  max_results?: number;
};

/** Which search runs: ripgrep when on PATH (auto), or one of them by force (tests compare the two). */
export type GrepEngine = "auto" | "ripgrep" | "builtin";

/** Refuses a pattern that needs to match across lines: both engines search one line at a time. */
function checkOneLine(pattern: string, literal: boolean): void {
  if (pattern.includes("\n") || (!literal && /(?:^|[^\\])(?:\\\\)*\\n/.test(pattern))) {
    throw new ToolError(
      `grep_code: field "pattern" contains a line break, but each line is searched on its own. ` +
        `Search for one line of the text (the most distinctive one).`,
    );
  }
}

/** The output being built: caps matches, keeps the last match's after-context, marks gaps with "--". */
class GrepOutput {
  lines: string[] = [];
  matches = 0;
  files = new Set<string>();
  partial = false;
  #last: { path: string; line: number } | null = null;
  #lastMatchLine = 0;

  constructor(readonly max: number, readonly context: number) {}

  /** Adds one event; false once a match beyond the cap shows the output is partial (stop searching). */
  add(event: LineEvent): boolean {
    if (event.kind === "match") {
      if (this.matches === this.max) {
        this.partial = true;
        return false;
      }
      this.matches++;
      this.files.add(event.path);
      this.#lastMatchLine = event.line;
    } else if (this.matches === this.max) {
      // Past the cap only the last match's own after-context is kept, not the next match's before-context.
      const sameFile = this.#last?.path === event.path;
      if (!sameFile || event.line > this.#lastMatchLine + this.context) return true;
    }
    const last = this.#last;
    if (this.context > 0 && last !== null && (last.path !== event.path || last.line + 1 !== event.line)) {
      this.lines.push("--");
    }
    const separator = event.kind === "match" ? ":" : "-";
    const text = cutAround(event.text, event.focus, MAX_GREP_LINE_CHARS);
    this.lines.push(`${event.path}${separator}${event.line}${separator}${text}`);
    this.#last = { path: event.path, line: event.line };
    return true;
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : word.endsWith("h") ? "es" : "s"}`;
}

/** The text for the model: the lines, then whether they are all, and how to narrow when not. */
function render(out: GrepOutput, args: GrepCodeArgs, shownPath: string): string {
  if (out.matches === 0) {
    const hints = ["files ignored by .gitignore, binary files and .env files are not searched"];
    if (args.case_sensitive !== false) hints.unshift("case_sensitive: false ignores letter case");
    return `No matches for ${JSON.stringify(args.pattern)} in ${shownPath} (${hints.join("; ")}).`;
  }
  const summary = `${plural(out.matches, "match")} in ${plural(out.files.size, "file")}`;
  if (!out.partial) return `${out.lines.join("\n")}\n[${summary}]`;
  return `${out.lines.join("\n")}\n[partial: showing the first ${summary}; more matches exist. Narrow the ` +
    `search with path (a subdirectory or file), glob (e.g. "*.ts") or a more specific pattern, or raise ` +
    `max_results (at most 1000).]`;
}

async function chooseEngine(engine: GrepEngine): Promise<"ripgrep" | "builtin"> {
  if (engine !== "auto") return engine;
  return await ripgrepAvailable() ? "ripgrep" : "builtin";
}

/** Runs grep_code; `engine` picks ripgrep or the built-in search (default: ripgrep when available). */
export async function grepCode(
  args: GrepCodeArgs,
  ctx: ToolContext,
  engine: GrepEngine = "auto",
): Promise<string> {
  return (await searchCode(args, ctx, engine)).content;
}

/** The search behind grep_code: the text for the model, and for the UI how many matches it shows. */
async function searchCode(args: GrepCodeArgs, ctx: ToolContext, engine: GrepEngine): Promise<ToolResult> {
  const literal = args.literal ?? false;
  checkOneLine(args.pattern, literal);
  const given = args.path ?? ".";
  const found = await resolvePath(ctx.root, given);
  if (found.info === null) {
    throw new ToolError(`grep_code: ${showPath(given)} not found: check it with list_dir.`, "not_found");
  }
  const file = !found.info.isDirectory;
  if (file) {
    // The read guard refuses FIFOs, sockets, devices, files over 10 MB and .env files, before opening.
    const checked = await resolveForRead(ctx.root, given);
    if (await readSearchable(checked.real) === null) {
      throw new ToolError(
        `grep_code: ${showPath(checked.rel)} is a binary file (not UTF-8 text): not searched.`,
      );
    }
  }
  const max = args.max_results ?? DEFAULT_MAX_MATCHES;
  const spec: SearchSpec = {
    pattern: args.pattern,
    literal,
    caseSensitive: args.case_sensitive ?? true,
    contextLines: args.context_lines ?? 0,
    glob: file ? undefined : args.glob,
    path: found.rel,
    maxMatches: max,
  };
  // A file named explicitly is searched whatever .gitignore says (as rg does), so it needs no rules.
  const rules = file ? new GitignoreRules(ctx.root) : await rulesFor(ctx.root, found.rel);
  const target = { file, rules };
  const search = await chooseEngine(engine) === "ripgrep"
    ? ripgrepSearch(ctx.root, spec, target, ctx.signal)
    : builtinSearch(ctx.root, spec, target, ctx.signal);
  const out = new GrepOutput(max, spec.contextLines);
  try {
    for await (const event of search) {
      if (!out.add(event)) break;
    }
  } catch (error) {
    if (!ctx.signal.aborted) throw error;
  }
  // ripgrep killed by the abort ends quietly; either way the model must not take a cut list as whole.
  if (ctx.signal.aborted) {
    throw new ToolError("grep_code: cancelled by the user before the search finished.", "cancelled");
  }
  const content = render(out, args, found.rel === "." ? "the project" : showPath(found.rel));
  if (out.matches === 0) return { content };
  const shown = { from: 1, to: out.matches, of: out.matches, unit: "matches", more: out.partial };
  return { content, details: { shown } };
}

/** The grep_code tool. */
export const grepCodeTool: Tool<GrepCodeArgs> = {
  name: "grep_code",
  description,
  parameters,
  inspect: (args, ctx) => {
    const pattern = JSON.stringify(args.pattern) + (args.glob ? ` (${args.glob})` : "");
    return inspectRead(ctx.root, args.path, where(pattern, args.path));
  },
  run: (args, ctx) => searchCode(args, ctx, "auto"),
};
