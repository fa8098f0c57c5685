/** The two search engines behind grep_code, ripgrep and a built-in one, yielding the very same events. */

import { join } from "../../fs/path.ts";
import { isSecretEnvName } from "../../fs/secret_env.ts";
import { type LineEvent, runRipgrep, type SearchSpec } from "./ripgrep.ts";
import type { GitignoreRules } from "./gitignore_rules.ts";
import { comparePaths } from "./path_order.ts";
import { readSearchable } from "./searchable_file.ts";
import { type WalkEntry, walkTree } from "./walk.ts";
import { ToolError } from "../tool.ts";
import { loadPicomatch, type Picomatch } from "../../fs/glob_matcher.ts";

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
function globFilter(
  glob: string | undefined,
  picomatch: Picomatch | undefined,
): { file(rel: string): boolean; dir(rel: string): boolean } {
  if (glob === undefined || picomatch === undefined) return { file: () => true, dir: () => true };
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
): AsyncGenerator<LineEvent> {
  const regex = compile(spec);
  const filter = globFilter(spec.glob, spec.glob === undefined ? undefined : await loadPicomatch());
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
  files: Iterable<string> | AsyncIterable<WalkEntry[]>,
  keep: (rel: string) => boolean,
): AsyncGenerator<string> {
  for await (const batch of files) {
    if (typeof batch === "string") {
      yield batch;
      continue;
    }
    for (const entry of batch) {
      if (entry.kind === "file" && !isSecretEnvName(baseName(entry.rel)) && keep(entry.rel)) yield entry.rel;
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

/** Line text an unsorted ripgrep run may hold before it gives way to a sorted, streaming one. */
const MAX_HELD_CHARS = 8 * 1024 * 1024;

/** Line text held while the files before it are checked; past it, rg waits for the checks. */
const MAX_AHEAD_CHARS = 1024 * 1024;

/**
 * ripgrep, with the built-in search's file rules applied on top (.env, binary, .gitignore above the path),
 * in path order. rg sorting its own output (`--sort path`) runs on one thread, so rg first runs on all
 * cores and the files are sorted here; only when that run finds more matches than the caller shows is it
 * stopped and replaced by a sorted run, which stops early at the first ones in path order.
 */
export async function* ripgrepSearch(
  root: string,
  spec: SearchSpec,
  target: SearchTarget,
  signal: AbortSignal,
): AsyncGenerator<LineEvent> {
  const files = target.file ? null : await unsortedRun(root, spec, target, signal);
  if (files !== null) {
    for (const lines of files) yield* lines;
    return;
  }
  yield* checkedAhead(runRipgrep(root, spec, { signal, sorted: !target.file }), root, target);
}

/** A file rg reported, its check under way, and its lines not yet handed on. */
interface Pending {
  keep: Promise<boolean>;
  lines: LineEvent[];
}

/**
 * The lines of the files rg reports, in rg's order, of the files the built-in search would read too. The
 * checks read each file, so they run a few files ahead instead of holding rg up one by one.
 */
async function* checkedAhead(
  events: AsyncIterable<LineEvent | { begin: string }>,
  root: string,
  target: SearchTarget,
): AsyncGenerator<LineEvent> {
  const pending: Pending[] = [];
  let held = 0;
  try {
    for await (const event of events) {
      if ("begin" in event) {
        pending.push({ keep: wouldSearch(root, event.begin, target), lines: [] });
      } else if (pending.length > 0) {
        pending[pending.length - 1].lines.push(event);
        held += event.text.length;
      }
      while (pending.length > READ_AHEAD || (held > MAX_AHEAD_CHARS && pending.length > 0)) {
        // The oldest file's lines go on; a file still being reported stays, to take the rest of its lines.
        const head = pending.length > 1 ? pending.shift()! : pending[0];
        const lines = head.lines.splice(0);
        held -= lines.reduce((sum, line) => sum + line.text.length, 0);
        if (await head.keep) yield* lines;
      }
    }
    // rg has finished: every file left is whole.
    while (pending.length > 0) {
      if (await pending[0].keep) yield* pending[0].lines;
      pending.shift();
    }
  } finally {
    // Stopped early (enough matches): checks already started must finish before the tool returns.
    await Promise.allSettled(pending.map((file) => file.keep));
  }
}

/**
 * The lines of every file rg finds on all cores, grouped by file, kept as the built-in search would, and
 * sorted by path; null when rg reports more matches than the caller shows (the first ones in path order
 * need a sorted run) or too much text.
 */
async function unsortedRun(
  root: string,
  spec: SearchSpec,
  target: SearchTarget,
  signal: AbortSignal,
): Promise<LineEvent[][] | null> {
  // Grouped by path, not by rg's "begin" messages: right even if rg ever interleaved its files.
  const files = new Map<string, LineEvent[]>();
  let matches = 0;
  let held = 0;
  for await (const event of runRipgrep(root, spec, { signal })) {
    if ("begin" in event) continue;
    // Counted before the checks below (which then run side by side): a file failing them rarely matches.
    if (event.kind === "match") matches++;
    held += event.text.length;
    // Leaving the loop stops the generator, which kills rg.
    if (matches > (spec.maxMatches ?? Infinity) || held > MAX_HELD_CHARS) return null;
    const lines = files.get(event.path);
    if (lines === undefined) files.set(event.path, [event]);
    else lines.push(event);
  }
  // Cancelled: the caller reports that; what rg printed so far is not checked.
  if (signal.aborted) return [];
  const sorted = [...files].sort(([a], [b]) => comparePaths(a, b));
  const kept: LineEvent[][] = [];
  for (let i = 0; i < sorted.length; i += READ_AHEAD) {
    const batch = sorted.slice(i, i + READ_AHEAD);
    const keep = await Promise.all(batch.map(([path]) => wouldSearch(root, path, target)));
    for (const [j, [, lines]] of batch.entries()) if (keep[j]) kept.push(lines);
  }
  return kept;
}

/** True when the built-in search would read the file rg reports: text, not .env, not ignored above the path. */
async function wouldSearch(root: string, rel: string, target: SearchTarget): Promise<boolean> {
  if (rel === "" || (await readSearchable(join(root, rel))) === null) return false;
  if (target.file) return true;
  await target.rules.load(rel);
  return !isSecretEnvName(baseName(rel)) && !target.rules.ignores(rel, false);
}
