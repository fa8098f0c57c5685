/** The typed events the agent loop emits; every UI (REPL, headless printer, stream-json) only consumes these. */
import type { Usage } from "../llm/types.ts";
import type { ToolDetails, ToolEffect, ToolErrorKind } from "../tools/tool.ts";
import type { PlanStep } from "../tools/update_plan.ts";

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
  /** Progress of a running call (after its tool_start, before its tool_result): its last output lines. */
  | { type: "tool_update"; id: string; name: string; tail: string[] }
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
  /** A failed model call about to be tried again; `discarded`: the part of its answer already shown is dropped. */
  | { type: "retry"; attempt: number; maxAttempts: number; delayMs: number; reason: string; discarded?: true }
  | { type: "notice"; level: "info" | "warn"; message: string }
  | { type: "final"; text: string; exitReason: ExitReason; partial: boolean }
  /** A sub-agent started; its id is the id of the task call that started it. */
  | { type: "child_start"; childId: string; agent: string; description: string }
  /** One event of a running sub-agent, tagged with its id; its `final` event ends it. */
  | { type: "child_event"; childId: string; event: AgentEvent }
  /** The task's plan (update_plan), whole, each time the model changes it. */
  | { type: "plan"; steps: PlanStep[] };
