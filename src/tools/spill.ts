/** Long tool output never floods the context: the full text goes to a file, the model gets head, tail and path. */

import { join } from "../fs/path.ts";
import { atomicWrite } from "../fs/atomic_write.ts";
import { resolvePath } from "../fs/path_guard.ts";
import { safeIndex } from "./_truncate.ts";

/** Results longer than this many characters are spilled to a file (for every tool, by the registry). */
export const SPILL_THRESHOLD = 32_000;

/** Where spilled output goes, relative to the project root (skipped by glob_files and grep_code walks). */
export const SPILL_DIR = ".tern/tool-outputs";

/** Characters of the start and of the end shown to the model in place of a spilled result. */
const VIEW_HEAD = 12_000;
const VIEW_TAIL = 8_000;

/** Numbers the spill files of this process, so two in the same millisecond get distinct names. */
let spillCount = 0;

/** Makes the spill directory inside the root; refuses a `.tern` that is a symlink leading outside. */
async function spillDir(root: string): Promise<{ real: string; rel: string }> {
  // A missing root is a caller's mistake; creating it (mkdir -p) would write somewhere unexpected.
  if (!(await Deno.stat(root)).isDirectory) throw new Error("the project root is not a directory");
  const planned = await resolvePath(root, SPILL_DIR);
  await Deno.mkdir(planned.real, { recursive: true });
  // Checked again once it exists: the kernel's own resolution must still land inside the root.
  const made = await resolvePath(root, SPILL_DIR);
  if (!made.info?.isDirectory) throw new Error(`${SPILL_DIR} is not a directory`);
  // Spilled output is scratch, not project content: keep it out of the user's git status.
  await Deno.writeTextFile(join(made.real, ".gitignore"), "*\n", { createNew: true }).catch(() => {});
  return made;
}

/**
 * Writes `text` in full to `.tern/tool-outputs/<timestamp>-<tool>-<n>.txt` inside `root`, atomically, and
 * returns that path relative to the root. Throws when it cannot be written (the caller decides what to show).
 */
export async function spillText(root: string, toolName: string, text: string): Promise<string> {
  const dir = await spillDir(root);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const tool = toolName.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "tool";
  const name = `${stamp}-${tool}-${++spillCount}.txt`;
  // 0600: command output can carry things (tokens in logs) that other users of the machine need not see.
  // NUL bytes (from command output) would make the file "binary" to read_file: show them as ␀ instead.
  const data = new TextEncoder().encode(text.replaceAll("\0", "\u2400"));
  await atomicWrite(join(dir.real, name), data, { mode: 0o600 });
  return `${dir.rel}/${name}`;
}

function countLines(text: string, end = text.length): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** Where head and tail end and begin: on line boundaries when a line ends near the cut. */
function cutPoints(text: string): { headEnd: number; tailStart: number } {
  let headEnd = safeIndex(text, VIEW_HEAD);
  const newline = text.lastIndexOf("\n", headEnd - 1);
  if (newline >= VIEW_HEAD / 2) headEnd = newline + 1;
  let tailStart = safeIndex(text, text.length - VIEW_TAIL);
  const next = text.indexOf("\n", tailStart);
  if (next !== -1 && next < text.length - VIEW_TAIL / 2) tailStart = next + 1;
  return { headEnd, tailStart };
}

/**
 * What the model sees of a long result: a note with the saved file's path (or why it could not be saved),
 * the head, the cut marked with the line numbers it covers, and the tail.
 */
export function spillView(text: string, savedAs: string | null): string {
  const { headEnd, tailStart } = cutPoints(text);
  const lines = countLines(text) + (text.endsWith("\n") ? 0 : 1);
  const firstCut = countLines(text, headEnd) + 1;
  const lastCut = countLines(text, tailStart - 1) + 1;
  const size = `${text.length} characters, ${lines} line${lines === 1 ? "" : "s"}`;
  const note = savedAs === null
    ? `[Output too long (${size}); it could not be saved to a file, so only its start and end are shown.]`
    : `[Output too long (${size}): the full text is saved in ${savedAs}. Page it with read_file ` +
      `(path "${savedAs}", offset and limit in lines) or search it with grep_code (path "${savedAs}").]`;
  const span = firstCut < lastCut ? `, lines ${firstCut}–${lastCut}` : `, in line ${firstCut}`;
  const head = text.slice(0, headEnd);
  const marker = `${head.endsWith("\n") ? "" : "\n"}… [${tailStart - headEnd} characters cut${span}] …\n`;
  return `${note}\n${head}${marker}${text.slice(tailStart)}`;
}

/** `content` unchanged when short; else the view of it, and where it was saved (if it could be). Never throws. */
export async function limitResult(
  root: string,
  toolName: string,
  content: string,
): Promise<{ content: string; savedAs?: string }> {
  if (content.length <= SPILL_THRESHOLD) return { content };
  try {
    const savedAs = await spillText(root, toolName, content);
    return { content: spillView(content, savedAs), savedAs };
  } catch {
    // An unwritable root or a .tern leading outside only costs the full copy; the view stays bounded.
    return { content: spillView(content, null) };
  }
}
