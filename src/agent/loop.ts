/** The ReAct loop for one user task: model call → tool calls → results → model call, until an answer. */
import {
  type AssistantTurn,
  type LlmClient,
  LlmError,
  type Message,
  type ToolCall,
  type Usage,
} from "../llm/types.ts";
import { type Registry, runPrepared } from "../tools/registry.ts";
import type { FileTracker, ShellSettings, ToolResult } from "../tools/tool.ts";
import { wrapToolResult } from "../tools/boundary.ts";
import type { ApprovalGate } from "./approval.ts";
import type { AgentEvent, ExitReason } from "./events.ts";

/** Everything one task needs; the loop knows no tool and no terminal by name. */
export interface LoopOptions {
  client: LlmClient;
  registry: Registry;
  model: string;
  root: string;
  approve: ApprovalGate;
  onEvent: (event: AgentEvent) => void;
  signal: AbortSignal;
  /** Model requests allowed for this task (off when undefined). */
  maxTurns?: number;
  /** Total tokens allowed for this task (off when undefined). */
  tokenBudget?: number;
  /** The conversation's memory of files read (stale-write guard); lives as long as the conversation. */
  files?: FileTracker;
  /** How commands run (sandbox mode, secrets to redact). */
  shell?: ShellSettings;
}

/** How a task ended. `history` has been extended in place and stays valid for the next request. */
export interface TaskResult {
  text: string;
  exitReason: ExitReason;
  partial: boolean;
  turns: number;
  toolCalls: number;
  usage: Usage;
  /** One-line reason when exitReason is "error". */
  error?: string;
}

const CANCELLED = "cancelled by the user";

/** Sums two usages (missing optional counts stay missing when both lack them). */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum = (
    x?: number,
    y?: number,
  ) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const out: Usage = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  const cached = sum(a.cachedTokens, b.cachedTokens);
  const reasoning = sum(a.reasoningTokens, b.reasoningTokens);
  if (cached !== undefined) out.cachedTokens = cached;
  if (reasoning !== undefined) out.reasoningTokens = reasoning;
  return out;
}

/** An all-zero usage. */
export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/**
 * Runs one user task to its end. Appends the user message, assistant messages and tool results to
 * `history`. Never throws for model or tool failures: they end the task with exitReason "error".
 */
export async function runTask(
  history: Message[],
  userText: string,
  options: LoopOptions,
): Promise<TaskResult> {
  history.push({ role: "user", content: userText });
  const state = { turns: 0, toolCalls: 0, usage: emptyUsage() };
  const end = (text: string, exitReason: ExitReason, error?: string): TaskResult => {
    const partial = exitReason !== "done" && exitReason !== "error" && exitReason !== "cancelled";
    options.onEvent({ type: "final", text, exitReason, partial });
    return { text, exitReason, partial, ...state, error };
  };

  while (true) {
    const limit = budgetExceeded(state, options);
    if (limit) return end("", limit);
    state.turns++;
    options.onEvent({ type: "model_start", turn: state.turns });
    let turn: AssistantTurn;
    try {
      turn = await callModel(history, options);
    } catch (error) {
      return failModelCall(error, history, options, end);
    }
    if (turn.usage) {
      state.usage = addUsage(state.usage, turn.usage);
      options.onEvent({ type: "usage", usage: turn.usage, total: state.usage });
    }
    if (turn.finishReason === "length") {
      // A cut answer is never presented as complete, and a cut tool call is never run.
      history.push({ role: "assistant", content: turn.text });
      return end(turn.text, "length");
    }
    if (turn.toolCalls.length === 0) {
      if (turn.text.trim() === "") return end("", "error", "the model returned an empty response");
      history.push({ role: "assistant", content: turn.text });
      return end(turn.text, "done");
    }
    history.push({
      role: "assistant",
      content: turn.text,
      reasoning: turn.reasoning,
      toolCalls: turn.toolCalls,
    });
    state.toolCalls += turn.toolCalls.length;
    await runToolCalls(turn.toolCalls, history, options);
    if (options.signal.aborted) return end("", "cancelled");
  }
}

function budgetExceeded(
  state: { turns: number; usage: Usage },
  options: LoopOptions,
): ExitReason | undefined {
  if (options.maxTurns !== undefined && state.turns >= options.maxTurns) return "max_turns";
  if (options.tokenBudget !== undefined && state.usage.totalTokens >= options.tokenBudget) {
    return "token_budget";
  }
  return undefined;
}

async function callModel(history: Message[], options: LoopOptions): Promise<AssistantTurn> {
  const request = { model: options.model, messages: history, tools: options.registry.specs() };
  return await options.client.stream(request, options.signal, (event) => {
    if (event.type === "text_delta" || event.type === "reasoning_delta") options.onEvent(event);
  });
}

function failModelCall(
  error: unknown,
  history: Message[],
  options: LoopOptions,
  end: (text: string, reason: ExitReason, error?: string) => TaskResult,
): TaskResult {
  const cancelled = options.signal.aborted || (error instanceof LlmError && error.kind === "aborted");
  // Keep the history well-formed for the next prompt: the user's message gets an assistant reply.
  history.push({ role: "assistant", content: cancelled ? `[${CANCELLED}]` : "[the model call failed]" });
  if (cancelled) return end("", "cancelled");
  const message = error instanceof Error ? error.message : String(error);
  return end("", "error", message);
}

/** Runs the calls in the model's order; every call gets exactly one result, also when cancelled. */
async function runToolCalls(calls: ToolCall[], history: Message[], options: LoopOptions): Promise<void> {
  for (const call of calls) {
    options.onEvent({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
    const result = options.signal.aborted
      ? { content: CANCELLED, isError: true }
      : await runOneCall(call, options);
    options.onEvent({ type: "tool_result", id: call.id, name: call.name, ...result });
    history.push({
      role: "tool",
      toolCallId: call.id,
      name: call.name,
      content: wrapToolResult(call.name, result.content),
      isError: result.isError,
    });
  }
}

async function runOneCall(call: ToolCall, options: LoopOptions): Promise<ToolResult> {
  // Validate before asking: nobody should approve a call that cannot run.
  const prepared = options.registry.prepare(call);
  if (!("tool" in prepared)) return prepared;
  if (prepared.tool.effect !== "read") {
    const decision = await options.approve({ call, effect: prepared.tool.effect });
    if (options.signal.aborted) return { content: CANCELLED, isError: true };
    if (!decision.allow) return { content: decision.reason, isError: true };
  }
  options.onEvent({ type: "tool_start", id: call.id, name: call.name });
  const { root, signal, files, shell } = options;
  const result = await runPrepared(prepared, { root, signal, files, shell });
  // What a cancelled tool produced before it stopped is still worth showing the model next turn.
  if (options.signal.aborted) return { content: `${CANCELLED}\n${result.content}`, isError: true };
  return result;
}
