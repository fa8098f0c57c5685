/** Runs ripgrep (when it is on PATH) for grep_code and streams its JSON output as line events. */

import { ToolError } from "../tool.ts";
import { SKIPPED_NAMES } from "./walk.ts";

/** One line reported by a search: a match, or a context line around one. */
export interface LineEvent {
  /** Path relative to the root, "/"-separated. */
  path: string;
  kind: "match" | "context";
  /** 1-based line number. */
  line: number;
  /** The line without its line ending. */
  text: string;
  /** Index (UTF-16) in `text` where the first match starts; 0 for context lines. */
  focus: number;
}

/** What to search for, shared by ripgrep and the built-in search. */
export interface SearchSpec {
  pattern: string;
  literal: boolean;
  caseSensitive: boolean;
  contextLines: number;
  /** One glob filtering files (gitignore-style; "!" excludes), or undefined. */
  glob?: string;
  /** Root-relative file or directory to search ("." = the root). */
  path: string;
  /** Matching lines the caller shows; an engine may stop after one more. Default: all. */
  maxMatches?: number;
}

/** How ripgrep runs: `sorted` makes rg print files in path order, on one thread instead of all cores. */
export interface RipgrepOptions {
  sorted?: boolean;
}

let available: Promise<boolean> | undefined;

/** True when `rg` runs here (checked once per process): missing, or not allowed by --allow-run, is false. */
export function ripgrepAvailable(): Promise<boolean> {
  available ??= (async () => {
    try {
      const command = new Deno.Command("rg", { args: ["--version"], stdin: "null", stderr: "null" });
      return (await command.output()).success;
    } catch {
      return false;
    }
  })();
  return available;
}

/**
 * The ripgrep flags that make its walk the built-in one's: .gitignore files count without a git repository,
 * and only from the search path down (the caller applies the ones above it); .ignore, .git/info/exclude and
 * the user's global excludes do not; hidden files are searched.
 */
export const RG_WALK_FLAGS: readonly string[] = [
  "--no-config",
  "--no-require-git",
  "--no-ignore-parent",
  "--no-ignore-dot",
  "--no-ignore-exclude",
  "--no-ignore-global",
  "--hidden",
];

/**
 * ripgrep's arguments: the same walk as the built-in one (see walk.ts), as JSON, sorted when asked. No
 * `--max-filesize`: it costs rg a stat of every file (a sixth of a search of the bench tree), and grep.ts
 * drops what rg finds in files over 10 MB anyway, as the built-in search skips them. rg still reads such a
 * file up to its first NUL byte (a sparse or binary giant ends there); a giant text file it reads whole.
 */
export function ripgrepArgs(spec: SearchSpec, options: RipgrepOptions = {}): string[] {
  const args = [
    "--json",
    ...RG_WALK_FLAGS,
    "--no-follow",
    spec.caseSensitive ? "--case-sensitive" : "--ignore-case",
    "--context",
    String(spec.contextLines),
  ];
  if (options.sorted) args.push("--sort", "path");
  if (spec.literal) args.push("--fixed-strings");
  if (spec.glob !== undefined) args.push("--glob", spec.glob);
  // Given last, the skip list wins over the user's glob (ripgrep: a later glob takes precedence).
  for (const name of SKIPPED_NAMES) args.push("--glob", `!${name}`);
  args.push("--regexp", spec.pattern, "--", spec.path === "." ? "./" : spec.path);
  return args;
}

/** Index in `text` of the character that starts at UTF-8 byte `offset`. */
function charIndex(text: string, offset: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < offset) {
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code > 0xffff ? 2 : 1;
  }
  return i;
}

/** Turns one line of rg's JSON into an event: a file starts ("begin") or a line; null for the rest. */
function parseEvent(json: string): LineEvent | { begin: string } | null {
  let message;
  try {
    message = JSON.parse(json);
  } catch {
    return null; // the half line rg was writing when it was killed
  }
  const data = message.data;
  // Paths or lines that are not UTF-8 come as base64 "bytes": such files are not text to us, skipped.
  const path = typeof data?.path?.text === "string" ? data.path.text.replace(/^\.\//, "") : null;
  if (message.type === "begin") return { begin: path ?? "" };
  if (message.type !== "match" && message.type !== "context") return null;
  const raw = data.lines?.text;
  if (path === null || typeof raw !== "string") return null;
  const text = raw.replace(/\r?\n$/, "");
  const start = message.type === "match" ? data.submatches?.[0]?.start ?? 0 : 0;
  return { path, kind: message.type, line: data.line_number, text, focus: charIndex(text, start) };
}

/** The lines of a byte stream, decoded as UTF-8 (rg's JSON is one object per line). */
async function* jsonLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let pending = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    // Only the new chunk is scanned: rescanning what is pending would make a 10 MB line quadratic.
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf("\n", start)) >= 0) {
      yield pending + chunk.slice(start, newline);
      pending = "";
      start = newline + 1;
    }
    pending += chunk.slice(start);
  }
  if (pending !== "") yield pending;
}

/** Words rg's complaint about the pattern for the model: the last line says what is wrong. */
function patternError(stderr: string): ToolError {
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  // rg says "regex parse error:", shows the pattern with a caret, then "error: <what is wrong>".
  const reason = (lines.find((line) => line.startsWith("error:")) ?? lines[0] ?? "invalid pattern")
    .replace(/^error:\s*/, "");
  return new ToolError(
    `grep_code: field "pattern" is not a valid regular expression (${reason}). Escape special ` +
      `characters with a backslash (e.g. "\\(" or "\\."), or send literal: true to search for the text as is.`,
  );
}

/**
 * Runs ripgrep in `root` and yields `{begin: path}` when a file with matches starts, then its lines; a
 * file's lines always come together, even unsorted. Stopping early (a `break` in the consumer) or
 * `signal` firing kills rg; nothing outlives the generator.
 */
export async function* runRipgrep(
  root: string,
  spec: SearchSpec,
  options: RipgrepOptions & { signal: AbortSignal },
): AsyncGenerator<LineEvent | { begin: string }> {
  const { signal } = options;
  const child = new Deno.Command("rg", {
    args: ripgrepArgs(spec, options),
    cwd: root,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
  };
  signal.addEventListener("abort", kill);
  // An abort that came before the listener never fires it.
  if (signal.aborted) kill();
  // Read stderr alongside (bounded by what rg writes: a few error lines), so a full pipe never stalls rg.
  const stderr = new Response(child.stderr).text();
  const reader = jsonLines(child.stdout);
  let events = 0;
  try {
    for await (const line of reader) {
      if (signal.aborted) break;
      const event = parseEvent(line);
      if (event === null) continue;
      events++;
      yield event;
    }
    const status = await child.status;
    // Other failures (an unreadable file: exit 2, with or without results) are skipped, as the built-in
    // search skips them; only a pattern rg cannot compile is the model's to fix.
    if (status.code === 2 && events === 0 && /regex|pattern/i.test(await stderr)) {
      throw patternError(await stderr);
    }
  } finally {
    signal.removeEventListener("abort", kill);
    kill();
    await reader.return(undefined);
    await child.status;
    await stderr.catch(() => "");
  }
}
