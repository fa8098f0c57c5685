/**
 * command_output: what a background process (execute_command with `background: true`) printed since the
 * last read, and whether it still runs. Offered once the session has started one.
 */

import { MAX_OUTPUT_CHARS } from "./_truncate.ts";
import {
  type BackgroundProcesses,
  type BackgroundRead,
  stateWords,
  unknownProcess,
} from "./shell/background.ts";
import { readInspection, type Tool, type ToolContext, type ToolResult } from "./tool.ts";

/** Longest the model may ask a read to wait for new output, in milliseconds. */
export const MAX_WAIT_MS = 60_000;

const description = "New output of a background command since the last read, and its state.";

const parameters = {
  type: "object",
  properties: {
    id: { type: "string" },
    wait_ms: { type: "integer", minimum: 0, maximum: MAX_WAIT_MS, description: "Wait this long for output" },
  },
  required: ["id"],
  additionalProperties: false,
};

/** Arguments of command_output, as validated against its schema. */
export type CommandOutputArgs = { id: string; wait_ms?: number };

/** The output when the view had to cut it: saved in full (as far as kept), and where. */
async function spilled(read: BackgroundRead, ctx: ToolContext): Promise<{ note: string; path?: string }> {
  if (read.total <= MAX_OUTPUT_CHARS) return { note: "" };
  try {
    const path = await ctx.spill(read.full);
    return {
      note: `\n[${read.total} characters since the last read; kept in ${path}: page it with read_file]`,
      path,
    };
  } catch {
    return { note: `\n[${read.total} characters since the last read; only the start and end are shown]` };
  }
}

/** Builds command_output over a session's background processes. */
export function createCommandOutputTool(processes: BackgroundProcesses): Tool<CommandOutputArgs> {
  const run = async (args: CommandOutputArgs, ctx: ToolContext): Promise<ToolResult> => {
    const read = await processes.read(args.id, Math.min(args.wait_ms ?? 0, MAX_WAIT_MS));
    if (!read) throw unknownProcess(args.id, processes);
    const spill = await spilled(read, ctx);
    const restored = read.restored.length === 0
      ? ""
      : `\n[it changed protected paths, which tern undid: ${read.restored.join("; ")}]`;
    const shown = read.view === "" ? "(no new output)" : read.view.replace(/\n$/, "");
    return {
      content: `${shown}${spill.note}${restored}\n[${stateWords(read.info)}]`,
      details: { background: args.id, ...(spill.path && { spilledTo: spill.path }) },
    };
  };
  return {
    name: "command_output",
    description,
    parameters,
    offered: () => processes.started,
    inspect: (args) => Promise.resolve({ ...readInspection([]), summary: args.id }),
    run,
  };
}
