/** The typed events the agent loop emits; every UI (REPL, headless printer, stream-json) only consumes these. */
import type { Usage } from "../llm/types.ts";
import type { ToolDetails, ToolEffect, ToolErrorKind } from "../tools/tool.ts";

/** Why a task ended. */
export type ExitReason =
  | "done"
  | "error"
  | "cancelled"
  | "length"
  | "max_turns"
  | "token_budget"
  | "time_budget"
  | "runaway"
  /** Even compacted, the next request would not fit the model's context window; nothing was sent. */
  | "context_full";

/** One thing that happened during a task, in order. */
export type AgentEvent =
  | { type: "model_start"; turn: number }
  | { type: "reasoning_delta"; text: string }
  | { type: "text_delta"; text: string }
  /** A call about to be handled; `summary` is its tool's one-line account of the target, when it gave one. */
  | { type: "tool_call"; id: string; name: string; arguments: string; summary?: string }
  /** Approved (if it needed to be) and running now. */
  | { type: "tool_start"; id: string; name: string; effect: ToolEffect }
  | {
    type: "tool_result";
    id: string;
    name: string;
    content: string;
    isError: boolean;
    errorKind?: ToolErrorKind;
    details?: ToolDetails;
  }
  | { type: "usage"; usage: Usage; total: Usage }
  | { type: "retry"; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  | { type: "notice"; level: "info" | "warn"; message: string }
  | { type: "final"; text: string; exitReason: ExitReason; partial: boolean };
