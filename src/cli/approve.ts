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
    const verb = request.effect === "exec" ? "Run" : "Allow";
    try {
      return await confirm({
        message: `${verb} ${request.call.name} ${summarizeArgs(request.call.arguments)}?`,
        default: true,
      });
    } catch {
      options.onInterrupt();
      return false;
    }
  };
}
