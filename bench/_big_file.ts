/**
 * The 5 MB file figures of issue 3: read_file and edit_file times (edit after a read, with a file tracker, as
 * the loop does it), and the bytes the model receives for one read and for paging through the whole file.
 */

import { createEditFileTool, type EditFileArgs } from "../src/tools/edit_file.ts";
import { createFileTracker } from "../src/fs/file_tracker.ts";
import { createReadFileTool } from "../src/tools/read_file.ts";
import { createRegistry, runPrepared } from "../src/tools/registry.ts";
import { builtinTools } from "../src/tools/builtin.ts";
import { wrapToolResult } from "../src/agent/policy/untrusted.ts";
import type { ToolContext } from "../src/tools/tool.ts";
import { count, ms, ratio, timed, toolContext } from "./_measure.ts";

const PATH = "src/big_module.ts";
const TARGET_BYTES = 5 * 1024 * 1024;
/** Lines with curly quotes that an edit sent with straight quotes finds only by normalising. */
const CURLY_LINES = 8;
const MODEL_TARGET_KB = 64;

/** A 5 MB TypeScript-like file: varied code lines, a marker line in the middle, a few curly-quoted lines. */
export function bigText(): { text: string; lines: number } {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < TARGET_BYTES; i++) {
    const line = i % 9 === 0
      ? ""
      : i % 9 === 1
      ? `export function handler${i}(input: Request${i % 17}): Promise<Response> {`
      : i % 9 === 8
      ? "}"
      : `  const value${i} = await store.load("key-${i}", { retries: ${i % 5}, timeoutMs: ${i % 1000} });`;
    out.push(line);
    size += line.length + 1;
  }
  const middle = Math.floor(out.length / 2);
  out[middle] = "export const editMarker = 0;";
  for (let k = 0; k < CURLY_LINES; k++) out[middle + 100 + k * 9] = `const greeting${k} = “hello”;`;
  return { text: `${out.join("\n")}\n`, lines: out.length };
}

/** read_file and edit_file sharing one conversation's memory of what was read, as the loop builds them. */
const files = createFileTracker();
const readFileTool = createReadFileTool({ files });
const editFileTool = createEditFileTool({ files });

async function readPage(ctx: ToolContext, offset?: number, limit?: number): Promise<string> {
  const result = await readFileTool.run({ path: PATH, offset, limit }, ctx);
  return typeof result === "string" ? result : result.content;
}

/** Times `runs` rounds of read (20 lines around `line`) then edit, as a model does; medians of each. */
async function readThenEdit(
  ctx: ToolContext,
  line: number,
  runs: number,
  edit: (round: number) => EditFileArgs,
): Promise<{ readMs: number; editMs: number; result: string }> {
  const reads: number[] = [];
  const edits: number[] = [];
  let result = "";
  for (let round = 0; round < runs; round++) {
    let start = performance.now();
    await readPage(ctx, Math.max(1, line - 10), 20);
    reads.push(performance.now() - start);
    start = performance.now();
    try {
      // As the loop does it: the dry run for the approval preview, then the edit itself.
      const { plan } = await editFileTool.inspect(edit(round), ctx);
      const done = await editFileTool.run(edit(round), ctx, plan);
      result = typeof done === "string" ? done : done.content;
    } catch (error) {
      // A refused edit is a result too (the "not found" case): its message goes to the model.
      result = error instanceof Error ? error.message : String(error);
    }
    edits.push(performance.now() - start);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { readMs: median(reads), editMs: median(edits), result };
}

async function readEditFigures(root: string, text: string, lines: number): Promise<void> {
  const ctx = toolContext(root);
  const first = await timed(7, () => readPage(ctx));
  const middle = await timed(7, () => readPage(ctx, Math.floor(lines / 2)));
  console.log(
    `read_file on a ${(text.length / 1e6).toFixed(1)} MB file (${count(lines)} lines): first page ` +
      `${ms(first.ms)}, page at line ${count(Math.floor(lines / 2))} ${ms(middle.ms)} (median of 7)`,
  );
  const markerLine = text.slice(0, text.indexOf("editMarker")).split("\n").length;
  const exact = await readThenEdit(ctx, markerLine, 7, (round) => ({
    path: PATH,
    old_text: `editMarker = ${round % 2};`,
    new_text: `editMarker = ${(round + 1) % 2};`,
  }));
  const curly = await readThenEdit(ctx, markerLine + 100, CURLY_LINES, (round) => ({
    path: PATH,
    old_text: `const greeting${round} = "hello";`,
    new_text: `const greeting${round} = "hi";`,
  }));
  if (!curly.result.includes("(+1 −1 lines)")) throw new Error(`normalised edit failed: ${curly.result}`);
  const missing = await readThenEdit(ctx, markerLine, 3, () => ({
    path: PATH,
    old_text:
      `export function handler(input: Request): Promise<Response> {\n  const value = await store.get("key");`,
    new_text: "// gone",
  }));
  const hinted = missing.result.includes("most similar text") ? "with" : "without";
  console.log(
    `edit_file on it after read_file (20 lines, ${ms(exact.readMs)}): exact ${ms(exact.editMs)}, ` +
      `normalised (curly quotes) ${ms(curly.editMs)}, not found ${hinted} similar-region hint ` +
      `${ms(missing.editMs)} (median of 7, ${CURLY_LINES}, 3)`,
  );
}

async function modelBytesFigures(root: string, text: string): Promise<void> {
  const ctx = toolContext(root);
  const registry = createRegistry(builtinTools());
  const call = async (offset?: number) => {
    const prepared = registry.prepare({
      name: "read_file",
      arguments: JSON.stringify({ path: PATH, offset }),
    });
    if (!("tool" in prepared)) throw new Error(`read_file failed: ${prepared.content}`);
    const result = await runPrepared(prepared, ctx);
    if (result.error) throw new Error(`read_file failed: ${result.content}`);
    const wrapped = wrapToolResult(result.content);
    const next = result.content.match(/call read_file with offset=(\d+)\)$/)?.[1];
    return {
      bytes: new TextEncoder().encode(wrapped).length,
      next: next === undefined ? null : Number(next),
    };
  };
  const one = await call();
  const kb = one.bytes / 1024;
  console.log(
    `bytes to the model after one read_file of the ${(text.length / 1e6).toFixed(1)} MB file: ` +
      `${kb.toFixed(1)} KB (target ≤ ${MODEL_TARGET_KB} KB, ratio ${ratio(kb, MODEL_TARGET_KB)})`,
  );
  let calls = 1;
  let total = one.bytes;
  const start = performance.now();
  for (let next = one.next; next !== null; calls++) {
    const page = await call(next);
    total += page.bytes;
    next = page.next;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `paging through all of it with read_file: ${count(calls)} calls, ${(total / 1e6).toFixed(1)} MB to the ` +
      `model (${ratio(total, text.length)}x the file), ${seconds.toFixed(1)} s (${
        ms((seconds * 1000) / calls)
      } ` +
      `a call: each page reads, decodes and hashes the whole file)`,
  );
}

/** Prints the 5 MB file figures, in a temp project of their own that is removed again. */
export async function bigFileFigures(): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-file-" }));
  try {
    const { text, lines } = bigText();
    await Deno.mkdir(`${root}/src`);
    await Deno.writeTextFile(`${root}/${PATH}`, text);
    await readEditFigures(root, text, lines);
    await modelBytesFigures(root, text);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
