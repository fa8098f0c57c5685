/** Approval policy: which tool calls need a human's yes, and what happens when nobody can answer. */
import type { ToolCall } from "../llm/types.ts";
import type { ToolEffect } from "../tools/tool.ts";

/** `ask`: ask before edits and commands; `edits`: edits run, commands ask; `all`: everything runs. */
export type ApprovalPolicy = "ask" | "edits" | "all";

/** A pending tool call that may need approval. */
export interface ApprovalRequest {
  call: ToolCall;
  effect: ToolEffect;
}

/** The answer to an approval request; a denial carries the reason the model will read. */
export type ApprovalDecision = { allow: true } | { allow: false; reason: string };

/** Asks for (or decides) approval of one call. */
export type ApprovalGate = (request: ApprovalRequest) => Promise<ApprovalDecision>;

/** Asks a human; resolves true for yes. */
export type AskHuman = (request: ApprovalRequest) => Promise<boolean>;

/** Whether `policy` lets a call with this effect run without asking. */
export function needsApproval(policy: ApprovalPolicy, effect: ToolEffect): boolean {
  if (effect === "read" || policy === "all") return false;
  if (policy === "edits") return effect === "exec";
  return true;
}

/**
 * Builds the gate for a policy. Without a human to ask (headless, no TTY), calls that need approval are
 * refused with a reason that names the flag which allows them.
 */
export function createApprovalGate(policy: ApprovalPolicy, askHuman?: AskHuman): ApprovalGate {
  return async (request) => {
    if (!needsApproval(policy, request.effect)) return { allow: true };
    if (!askHuman) {
      const flag = request.effect === "write" ? "--approve edits (or --approve all)" : "--approve all";
      return {
        allow: false,
        reason: `${request.call.name} needs approval, and tern is running without a terminal to ask ` +
          `(approval policy "${policy}"). Not run. The user can allow it by rerunning with ${flag}.`,
      };
    }
    if (await askHuman(request)) return { allow: true };
    return { allow: false, reason: `The user denied this ${request.call.name} call. Not run.` };
  };
}
