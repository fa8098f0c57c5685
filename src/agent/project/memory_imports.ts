/**
 * `@path` imports in the memory file, as Claude Code users write them (`See @docs/testing.md`): each file
 * named is read through the path guard and added after the text that named it, once, depth first. A path
 * is relative to the file that names it. Refused, with one line each: a path outside the project root (`~`,
 * absolute, `..`, a symlink out), `.env` files, a cycle, more than 5 imports deep, and anything once the
 * memory cap is reached. A mention of no file (`@octocat`, `@types/node`) stays text, as does one in code.
 */
import { posix } from "../../fs/path.ts";
import { readTextFile } from "../../fs/path_guard.ts";
import { SecretFileError } from "../../fs/secret_env.ts";
import { ToolError } from "../../fs/tool_error.ts";

/** Imports deeper than this (the memory file is depth 0) are refused. */
export const MAX_IMPORT_DEPTH = 5;

/** The memory text with its imports, and what was imported or refused. */
export interface Expanded {
  text: string;
  /** The files imported, relative to the root, in order. */
  imports: string[];
  /** One line per refused import. */
  problems: string[];
}

interface State {
  root: string;
  capBytes: number;
  bytes: number;
  /** Every file in the text so far (the memory file too): each goes in once. */
  seen: Set<string>;
  blocks: string[];
  imports: string[];
  problems: string[];
}

/**
 * The memory file `source` (its `text` already read) with its imports after it, as
 * `<imported path="…">…</imported>` blocks; reading stops once `capBytes` are gathered.
 */
export async function expandImports(
  root: string,
  source: string,
  text: string,
  capBytes: number,
): Promise<Expanded> {
  const state: State = {
    root,
    capBytes,
    bytes: utf8(text),
    seen: new Set([source]),
    blocks: [],
    imports: [],
    problems: [],
  };
  await visit(state, [source], text);
  const { imports, problems, blocks } = state;
  return { text: [text, ...blocks].join("\n\n"), imports, problems };
}

/** Imports what `text` (the last file of `chain`) names, each followed by what it names in turn. */
async function visit(state: State, chain: string[], text: string): Promise<void> {
  const from = chain.at(-1)!;
  for (const mention of mentions(text)) {
    const refuse = (why: string) => state.problems.push(`${from}: @${mention} ${why}; not imported`);
    const path = target(state.root, from, mention);
    if (path === null) {
      refuse("is outside the project root (tern reads nothing outside the project)");
      continue;
    }
    if (chain.includes(path)) {
      state.problems.push(`${[...chain, path].join(" → ")}: an import cycle; not imported again`);
      continue;
    }
    if (state.seen.has(path)) continue; // imported already, through another file
    if (chain.length > MAX_IMPORT_DEPTH) {
      refuse(`is more than ${MAX_IMPORT_DEPTH} imports deep`);
      continue;
    }
    const read = await readImport(state.root, path, mention);
    if (read === null) continue;
    if (typeof read !== "string") {
      refuse(read.why);
      continue;
    }
    if (state.bytes >= state.capBytes) {
      const cap = state.capBytes % 1024 === 0 ? `${state.capBytes / 1024} KB` : `${state.capBytes} bytes`;
      refuse(`comes after the memory cap (${cap}) was reached`);
      continue;
    }
    state.seen.add(path);
    state.bytes += utf8(read);
    state.imports.push(path);
    state.blocks.push(`<imported path="${path}">\n${read.replace(/\r\n/g, "\n").trimEnd()}\n</imported>`);
    await visit(state, [...chain, path], read);
  }
}

/**
 * The text of `path`; null for a mention that names no file (stays text); `{why}` for a refusal. A missing
 * file is a refusal only when the mention looks like a file name (has an extension).
 */
async function readImport(
  root: string,
  path: string,
  mention: string,
): Promise<string | null | { why: string }> {
  try {
    const file = await readTextFile(root, path);
    return file.text;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    if (error.kind === "outside_root") return { why: "is outside the project root" };
    if (error.kind === "not_found") return /\.\w+$/.test(mention) ? { why: "was not found" } : null;
    if (/ is a directory/.test(error.message)) return null;
    if (error instanceof SecretFileError) return { why: "is a .env file, which tern never reads" };
    if (error.kind === "too_large") return { why: "is over 10 MB" };
    return { why: /binary/.test(error.message) ? "is not text" : "cannot be read" };
  }
}

/** The `@path` mentions of `text`, in order, outside code blocks and code spans, trailing punctuation cut. */
function mentions(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/(?:^|\s)@([^\s@`'"<>()[\]{}]+)/g)]
    .map((match) => match[1].replace(/[.,;:!?]+$/, ""))
    .filter((mention) => mention !== "");
}

/** The path `mention` names from the file `from`, relative to `root`; null when it leads outside. */
function target(root: string, from: string, mention: string): string | null {
  if (mention.startsWith("~")) return null;
  const path = posix.isAbsolute(mention)
    ? posix.relative(root, mention)
    : posix.normalize(posix.join(posix.dirname(from), mention));
  return path === "" || path === ".." || path.startsWith("../") ? null : path;
}

function utf8(text: string): number {
  return new TextEncoder().encode(text).length;
}
