/** Asks the human yes/no before a risky tool call, in the REPL. */
import { confirm } from "@inquirer/prompts";
import type { ApprovalRequest, AskHuman } from "../agent/approval.ts";
import { summarizeArgs } from "./render.ts";

/**
 * Builds the REPL's yes/no prompt. `beforeAsk` lets the renderer stop its spinner first. A Ctrl-C at the
 * prompt counts as "no" and cancels the turn through `onInterrupt`.
 */
export function terminalAsker(options: { beforeAsk: () => void; onInterrupt: () => void }): AskHuman {
  return async (request: ApprovalRequest) => {
    options.beforeAsk();
    try {
      return await confirm({ message: describeCall(request), default: true });
    } catch {
      options.onInterrupt();
      return false;
    }
  };
}

/** The question shown to the human: a command is shown whole, since that is what will run. */
export function describeCall(request: ApprovalRequest): string {
  const { name, arguments: raw } = request.call;
  try {
    const args = JSON.parse(raw || "{}");
    if (request.effect === "exec" && typeof args.command === "string") {
      return `Run command:\n  ${args.command}\n`;
    }
    if (typeof args.path === "string") {
      const size = typeof args.content === "string"
        ? ` (${new TextEncoder().encode(args.content).length} bytes)`
        : "";
      return `Allow ${name} on ${args.path}${size}?`;
    }
  } catch {
    // Unparseable arguments: the registry will reject them anyway; show them raw.
  }
  return `Allow ${name} ${summarizeArgs(raw)}?`;
}
