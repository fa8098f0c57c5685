/**
 * What execute_command's result says besides the output: where a long output was saved, a hint when the
 * sandbox seems to be what failed, and what the command printed and left behind.
 */
import type { Finished } from "./run_contract.ts";
import { type CommandOutput, MAX_SPILL_CHARS } from "./command_output.ts";
import { MAX_OUTPUT_CHARS, truncateMiddle } from "../_truncate.ts";
import type { ToolContext, ToolDetails } from "../tool.ts";

/** Background processes named in a result at most. */
const MAX_SURVIVORS_SHOWN = 5;

/** Output that suggests the sandbox, not the command, is what failed. */
const READ_ONLY_FAILURE = /Read-only file system/i;
const NETWORK_FAILURE =
  /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|No address associated with hostname|getaddrinfo|EAI_AGAIN|ENETUNREACH|Connection refused|ECONNREFUSED/i;

/** Saves the full output when the view had to cut it; says where (or why it could not), and the path. */
export async function spillNote(
  output: CommandOutput,
  ctx: ToolContext,
): Promise<{ note: string; savedAs?: string }> {
  if (output.total <= MAX_OUTPUT_CHARS) return { note: "" };
  const cut = output.total > MAX_SPILL_CHARS;
  try {
    const path = await ctx.spill(output.full.toString());
    const kept = cut
      ? `too long to keep whole: its first and last ${MAX_SPILL_CHARS / 2} characters are in ${path}`
      : `saved in full to ${path}`;
    const note = `\n[output: ${output.total} characters, ${kept}; page it with read_file (offset and limit ` +
      "in lines) or search it with grep_code]";
    return { note, savedAs: path };
  } catch (error) {
    // Worded for the model: no absolute path of the machine outside the root.
    const why = (error instanceof Error ? error.message : String(error)).replaceAll(ctx.root, ".")
      .replace(/(^|[\s'"(])\/[^\s'")]*/g, "$1…");
    return { note: `\n[output: ${output.total} characters; the full output could not be saved (${why})]` };
  }
}

/** A hint when a sandboxed command seems to have failed on the sandbox rather than on its own. */
export function sandboxHint(text: string, network: boolean): string {
  if (!READ_ONLY_FAILURE.test(text) && (network || !NETWORK_FAILURE.test(text))) return "";
  const writes = "writes only inside the project, not to .git/config or .git/hooks";
  if (network) return `\n(commands run in a sandbox: ${writes})`;
  return `\n(commands run in a sandbox: no network, ${writes}; ask with network: true if you need the network)`;
}

/** Lines about what the command printed and left behind: binary output, background processes. */
export function aftermath(run: Finished): { note: string; details: ToolDetails } {
  let note = run.binary ? `\n[binary output, ${run.bytes} bytes, shown escaped]` : "";
  const details: ToolDetails = {};
  const { killed = 0, survivors = [] } = run.leftovers ?? {};
  if (killed > 0) {
    note += `\n[${killed} background process${killed === 1 ? " was" : "es were"} still running at the ` +
      "command's end and killed]";
    details.killedBackground = killed;
  }
  if (survivors.length > 0) {
    const shown = survivors.slice(0, MAX_SURVIVORS_SHOWN).map((line) => truncateMiddle(line, 120));
    const more = survivors.length > shown.length ? `; and ${survivors.length - shown.length} more` : "";
    note += `\n[still running after the command's end (they left its session): ${shown.join("; ")}${more}; ` +
      "kill them if they should not outlive it]";
    details.survivors = survivors;
  }
  return { note, details };
}
