/** The two search engines behind grep_code, ripgrep and a built-in one, yielding the very same events. */

// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { join } from "node:path";
import { isSecretEnvName } from "./path_guard.ts";
import { type LineEvent, runRipgrep, type SearchSpec } from "./_ripgrep.ts";
import { type GitignoreRules, readSearchable, type WalkEntry, walkTree } from "./_walk.ts";
import { ToolError } from "./tool.ts";

/** What a search yields: a file with matches starts (ripgrep only), or one of its lines. */
export type SearchEvent = LineEvent | { begin: string };

/** The searched path as the engines need it: a single file or a tree, with its .gitignore rules. */
export interface SearchTarget {
  /** True when the path is one file (named explicitly: searched whatever its name or .gitignore). */
  file: boolean;
  rules: GitignoreRules;
}

/** Files read ahead of the one being searched by the built-in search. */
const READ_AHEAD = 16;

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf("/") + 1);
}

/** The JavaScript regex of the built-in search; its syntax error is worded for the model. */
function compile(spec: SearchSpec): RegExp {
  const source = spec.literal ? spec.pattern.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&") : spec.pattern;
  try {
    // "s": "." also matches "\r" and U+2028 as in ripgrep, where only "\n" ends a line.
    return new RegExp(source, spec.caseSensitive ? "us" : "usi");
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^.*: /, "") : String(error);
    throw new ToolError(
      `grep_code: field "pattern" is not a valid regular expression (${reason}). Escape special ` +
        `characters with a backslash (e.g. "\\(" or "\\."), or send literal: true to search for the text as is.`,
    );
  }
}

/** ripgrep's glob rules in picomatch: no "/" matches the name at any depth; "!" excludes; "x/" is a directory. */
function globFilter(glob: string | undefined): { file(rel: string): boolean; dir(rel: string): boolean } {
  if (glob === undefined) return { file: () => true, dir: () => true };
  const negated = glob.startsWith("!");
  let body = negated ? glob.slice(1) : glob;
  const dirOnly = body.endsWith("/");
  if (dirOnly) body = body.slice(0, -1);
  const anchored = body.includes("/");
  const isMatch = picomatch(body.replace(/^\//, ""), { dot: true });
  const test = (rel: string) => isMatch(anchored ? rel : rel.slice(rel.lastIndexOf("/") + 1));
  return {
    file: (rel) => dirOnly ? negated : negated ? !test(rel) : test(rel),
    dir: (rel) => !negated || !test(rel),
  };
}

/** Matches and context lines of one file's text, in ripgrep's order and grouping. */
function* searchText(path: string, content: string, regex: RegExp, context: number): Generator<LineEvent> {
  const lines = content.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const text = (n: number) => lines[n].replace(/\r$/, "");
  let shown = -1;
  let after = -1;
  for (let i = 0; i < lines.length; i++) {
    const found = regex.exec(lines[i]);
    if (found !== null) {
      for (let j = Math.max(i - context, shown + 1); j < i; j++) {
        yield { path, kind: "context", line: j + 1, text: text(j), focus: 0 };
      }
      yield { path, kind: "match", line: i + 1, text: text(i), focus: found.index };
      shown = i;
      after = i + context;
    } else if (i <= after) {
      yield { path, kind: "context", line: i + 1, text: text(i), focus: 0 };
      shown = i;
    }
  }
}

/** The built-in search: the shared walker, then each text file line by line. */
export async function* builtinSearch(
  root: string,
  spec: SearchSpec,
  target: SearchTarget,
  signal: AbortSignal,
): AsyncGenerator<SearchEvent> {
  const regex = compile(spec);
  const filter = globFilter(spec.glob);
  const files = target.file
    ? [spec.path]
    : walkTree(root, spec.path, target.rules, { signal, enterDir: filter.dir });
  for await (const [rel, text] of readAhead(searchable(files, filter.file), root)) {
    if (text !== null) yield* searchText(rel, text, regex, spec.contextLines);
  }
}

/**
 * The files a search may read: a file named explicitly (already checked by the read guard), or walked
 * regular files that are not symlinks, not .env files, and kept by the glob.
 */
async function* searchable(
  files: Iterable<string> | AsyncIterable<WalkEntry>,
  keep: (rel: string) => boolean,
): AsyncGenerator<string> {
  for await (const entry of files) {
    if (typeof entry === "string") yield entry;
    else if (entry.kind === "file" && !isSecretEnvName(baseName(entry.rel)) && keep(entry.rel)) {
      yield entry.rel;
    }
  }
}

/** Reads files a few ahead of the search, in order: the reads overlap instead of queueing one by one. */
async function* readAhead(
  paths: AsyncIterable<string>,
  root: string,
): AsyncGenerator<[string, string | null]> {
  const queue: [string, Promise<string | null>][] = [];
  try {
    for await (const rel of paths) {
      queue.push([rel, readSearchable(join(root, rel))]);
      if (queue.length >= READ_AHEAD) {
        const [next, text] = queue.shift()!;
        yield [next, await text];
      }
    }
    while (queue.length > 0) {
      const [next, text] = queue.shift()!;
      yield [next, await text];
    }
  } finally {
    // Stopped early (enough matches): reads already started must finish before the tool returns.
    await Promise.allSettled(queue.map(([, text]) => text));
  }
}

/** ripgrep, with the built-in search's file rules applied on top (.env, binary, .gitignore above the path). */
export async function* ripgrepSearch(
  root: string,
  spec: SearchSpec,
  target: SearchTarget,
  signal: AbortSignal,
): AsyncGenerator<SearchEvent> {
  let accept = false;
  for await (const event of runRipgrep(root, spec, signal)) {
    if (!("begin" in event)) {
      if (accept) yield event;
      continue;
    }
    const rel = event.begin;
    accept = rel !== "" && (await readSearchable(join(root, rel))) !== null;
    if (accept && !target.file) {
      await target.rules.load(rel);
      accept = !isSecretEnvName(baseName(rel)) && !target.rules.ignores(rel, false);
    }
  }
}
