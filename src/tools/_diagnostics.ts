/** The language server's word on a file change, added to edit_file's and write_file's result. */
import { outcomeText } from "./lsp/report.ts";
import type { ToolContext, ToolResult } from "./tool.ts";

/**
 * `result` with what `ctx.diagnostics` says of the change to `path` (real) appended to its content and set as
 * `details.diagnostics`; unchanged when no server speaks for the file.
 */
export async function withDiagnostics(
  ctx: ToolContext,
  result: ToolResult,
  change: { path: string; rel: string; before: string | null; after: string },
): Promise<ToolResult> {
  const outcome = await ctx.diagnostics?.after(change.path, change);
  if (outcome === undefined) return result;
  return {
    ...result,
    content: result.content + outcomeText(outcome, change.rel),
    details: { ...result.details, diagnostics: outcome },
  };
}
