/**
 * What an edit changed in a file's errors, and the few lines the model reads about it. An error is the same
 * error before and after when its message, code and source are: lines move under an edit, so positions are
 * not compared. Only errors count (warnings and hints are noise to a model mid-task).
 */
import type { Diagnostic } from "./pull.ts";

/** New errors listed at most; the rest are counted. */
export const MAX_LISTED = 10;

/** The outcome of one edit's check, as tool results carry it (`details.diagnostics`, stream-json's field). */
export type DiagnosticsOutcome =
  | { state: "checked"; server: string; introduced: Diagnostic[]; fixed: number; errors: number }
  | { state: "not_ready"; server: string; why: string };

/** The errors of `after` that `before` did not have, and how many of `before`'s are gone. */
export function compareErrors(
  before: readonly Diagnostic[],
  after: readonly Diagnostic[],
): { introduced: Diagnostic[]; fixed: number; errors: number } {
  const errors = (list: readonly Diagnostic[]) => list.filter((item) => item.severity === 1);
  const left = new Map<string, number>();
  for (const item of errors(before)) left.set(key(item), (left.get(key(item)) ?? 0) + 1);
  const introduced: Diagnostic[] = [];
  for (const item of errors(after)) {
    const count = left.get(key(item)) ?? 0;
    if (count > 0) left.set(key(item), count - 1);
    else introduced.push(item);
  }
  const fixed = [...left.values()].reduce((sum, count) => sum + count, 0);
  return { introduced, fixed, errors: errors(after).length };
}

function key(item: Diagnostic): string {
  return `${item.source ?? ""}\u0000${item.code ?? ""}\u0000${item.message}`;
}

/** The lines appended to the tool's result, e.g. "Diagnostics (typescript): no new problems; 1 error fixed." */
export function outcomeText(outcome: DiagnosticsOutcome, rel: string): string {
  if (outcome.state === "not_ready") {
    return `\nDiagnostics (${outcome.server}): not ready (${outcome.why}).`;
  }
  const { introduced, fixed, errors, server } = outcome;
  const fixedText = fixed > 0 ? `; ${fixed} error${fixed === 1 ? "" : "s"} fixed` : "";
  if (introduced.length === 0) {
    const left = errors > 0 ? ` (${errors} remain${errors === 1 ? "s" : ""})` : "";
    return `\nDiagnostics (${server}): no new problems${fixedText}${left}.`;
  }
  const count = `${introduced.length} new error${introduced.length === 1 ? "" : "s"}`;
  const lines = introduced.slice(0, MAX_LISTED).map((item) => `  ${diagnosticLine(item, rel)}`);
  const more = introduced.length > MAX_LISTED ? [`  ... and ${introduced.length - MAX_LISTED} more`] : [];
  return `\nDiagnostics (${server}): ${count}${fixedText}:\n${[...lines, ...more].join("\n")}`;
}

/** One diagnostic in one line, e.g. "src/a.ts:3:7: Type 'string' is not assignable ... [ts 2322]". */
export function diagnosticLine(item: Diagnostic, rel: string): string {
  const tag = [item.source, item.code].filter((part) => part !== undefined).join(" ");
  // deno-lint-ignore no-control-regex -- a server's text is untrusted: one line, no control characters
  const message = item.message.replace(/[\x00-\x1f\x7f\s]+/g, " ").trim();
  return `${rel}:${item.line + 1}:${item.character + 1}: ${message}${tag ? ` [${tag}]` : ""}`;
}
