/** command_kill: stop a background process (execute_command with `background: true`) and its whole group. */

import { type BackgroundProcesses, stateWords, survivorLine, unknownProcess } from "./shell/background.ts";
import type { CallInspection, Tool, ToolResult } from "./tool.ts";

const description = "Stop a background command and every process it started.";

const parameters = {
  type: "object",
  properties: { id: { type: "string" } },
  required: ["id"],
  additionalProperties: false,
};

/** Arguments of command_kill, as validated against its schema. */
export type CommandKillArgs = { id: string };

/** Builds command_kill over a session's background processes. */
export function createCommandKillTool(processes: BackgroundProcesses): Tool<CommandKillArgs> {
  // It stops only what this session started: nothing to approve, but not a read that runs beside others.
  const inspect = (args: CommandKillArgs): Promise<CallInspection> =>
    Promise.resolve({ effect: "exec", paths: [], sandboxed: true, summary: args.id });
  const run = async (args: CommandKillArgs): Promise<ToolResult> => {
    const known = processes.list().find((info) => info.id === args.id);
    if (!known) throw unknownProcess(args.id, processes);
    if (known.state !== "running") {
      return { content: `${stateWords(known)} already; nothing to stop`, details: { background: args.id } };
    }
    const info = await processes.kill(args.id);
    const unread = info!.unread > 0
      ? ` (${info!.unread} characters of output unread: command_output has them)`
      : "";
    const left = info!.survivors ? `. ${survivorLine(info!)}` : "";
    const restored = processes.takeRestored(args.id);
    const undone = restored.length === 0
      ? ""
      : `\n[it changed protected paths, which tern undid: ${restored.join("; ")}]`;
    return { content: `${stateWords(info!)}${unread}${left}${undone}`, details: { background: args.id } };
  };
  return { name: "command_kill", description, parameters, offered: () => processes.started, inspect, run };
}
