/** Unified diffs for the terminal: coloured, capped, safe to print, and their "+N −M lines" summary. */
import { styleText } from "./style.ts";
import type { StructuredPatchHunk } from "diff";
import { terminalSafe } from "./terminal_safe.ts";
import { diffFailure, loadedDiff } from "../../text_diff.ts";
import { lineDelta } from "../../tools/edit/line_delta.ts";

/** Lines added and removed by a change. */
export interface DiffStat {
  added: number;
  removed: number;
}

/** Options for `renderDiff`. */
export interface DiffViewOptions {
  useColor: boolean;
  /** Diff lines shown before the rest is summarised; default 200. */
  maxLines?: number;
  /** Unchanged lines around each change; default 3. */
  context?: number;
  /** The file does not exist yet: the old side is /dev/null. */
  newFile?: boolean;
}

/** Diff lines shown before cutting, so a rewrite of a big file does not scroll the question away. */
const DEFAULT_MAX_LINES = 200;

/** A diff of two large, very different texts can take long (Myers is O(ND)); past this, no diff is shown. */
const DIFF_TIMEOUT_MS = 1_000;

type Color = "red" | "green" | "cyan" | "bold" | "dim";

function hunksOf(oldText: string, newText: string, context: number): StructuredPatchHunk[] | undefined {
  const patch = loadedDiff()!.structuredPatch("a", "b", oldText, newText, undefined, undefined, {
    context,
    timeout: DIFF_TIMEOUT_MS,
  });
  return patch?.hunks;
}

/** Counts of changed lines, as the edit tools count them (without the diff package). */
export function diffSummary(oldText: string, newText: string): DiffStat {
  return lineDelta(oldText, newText);
}

/** "+3 −1 lines" (a real minus sign, as the edit tool writes it). */
export function formatDiffSummary(stat: DiffStat): string {
  return `+${stat.added} −${stat.removed} line${stat.added + stat.removed === 1 ? "" : "s"}`;
}

/**
 * A unified diff of `oldText` → `newText` for `path`, coloured when asked (removed red, added green, hunk
 * headers cyan), cut after `maxLines` diff lines with a note of how many were left out. Content is made
 * terminal-safe; a trailing CR is not shown (it would return the cursor to the line start).
 */
export function renderDiff(path: string, oldText: string, newText: string, options: DiffViewOptions): string {
  const paint = (color: Color, text: string) => options.useColor ? styleText(color, text) : text;
  const name = terminalSafe(path);
  const header = [
    paint("bold", `--- ${options.newFile ? "/dev/null" : `a/${name}`}`),
    paint("bold", `+++ b/${name}`),
  ];
  if (oldText === newText) return [...header, paint("dim", "(no changes)")].join("\n");
  if (loadedDiff() === undefined) {
    // The front end loads the package before showing a diff; one that could not be loaded is said, once.
    const why = diffFailure() ?? "the diff package is not loaded";
    const stat = formatDiffSummary(diffSummary(oldText, newText));
    return [...header, paint("dim", terminalSafe(`(diff not shown: ${why}; ${stat})`))].join("\n");
  }
  const hunks = hunksOf(oldText, newText, options.context ?? 3);
  if (hunks === undefined) {
    const stat = diffSummary(oldText, newText);
    return [...header, paint("dim", `(diff too large to show: ${formatDiffSummary(stat)})`)].join("\n");
  }
  const body: string[] = [];
  for (const hunk of hunks) {
    body.push(
      paint("cyan", `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`),
    );
    for (const line of hunk.lines) body.push(paintLine(line, paint));
  }
  const max = options.maxLines ?? DEFAULT_MAX_LINES;
  const shown = body.slice(0, max);
  if (body.length > max) shown.push(paint("dim", `… ${body.length - max} more diff lines not shown`));
  return [...header, ...shown].join("\n");
}

/** A hunk range as unified diffs write it: an empty side names the line before it (`-0,0` for a new file). */
function range(start: number, lines: number): string {
  return `${lines === 0 ? start - 1 : start},${lines}`;
}

function paintLine(line: string, paint: (color: Color, text: string) => string): string {
  const text = terminalSafe(line.replace(/\r$/, ""));
  if (line.startsWith("+")) return paint("green", text);
  if (line.startsWith("-")) return paint("red", text);
  if (line.startsWith("\\")) return paint("dim", text);
  return text;
}
