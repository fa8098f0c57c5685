/**
 * The question every approval decision is about: a validated tool call and its tool's account of it. Kept
 * apart so the policy (approval.ts) and the permission rules that match requests both import it, not each other.
 */
import type { ToolCall } from "../../llm/types.ts";
import type { CallInspection } from "../../tools/tool.ts";

/** A validated tool call about to run, with what its tool says it will do. */
export interface ApprovalRequest {
  call: ToolCall;
  /** The tool's own account of this call: effect, paths (symlinks resolved), sandboxing, preview. */
  inspection: CallInspection;
  /** A PreToolUse hook said "allow": like an allow rule, it lets a call run that would ask. */
  allowedByHook?: boolean;
  /** A PreToolUse hook said "ask" (its reason): the human is asked whatever the policy. */
  askedByHook?: string;
}
