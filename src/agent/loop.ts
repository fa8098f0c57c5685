/** The ReAct loop for one user task: model call → tool calls → results → model call, until an answer. */
import type { AssistantTurn, LlmClient, Usage } from "../llm/types.ts";
import type { Registry } from "../tools/registry.ts";
import type { FatalToolError } from "../tools/tool.ts";
import type { ApprovalGate } from "./approval.ts";
import type { Conversation } from "./conversation.ts";
import type { AgentEvent, ExitReason } from "./events.ts";
import { type EarlyStopReason, finalisationText, TaskBudget } from "./budget.ts";
import { ContextFullError } from "./context_fit.ts";
import { callModel, type CallState, describeFailure, type ModelCallOptions } from "./model_call.ts";
import { RequestGauge } from "./request_gauge.ts";
import { RequiredTools } from "./required_tools.ts";
import { RunawayGuard, type RunawayVerdict } from "./runaway.ts";
import { MAX_CALLS_PER_TURN, usedCallIds, withUniqueIds } from "./protocol.ts";
import { refuseOverCap, runToolCalls } from "./tool_calls.ts";

/** Everything one task needs besides its conversation; the loop knows no tool and no terminal by name. */
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
  /** Wall-clock milliseconds allowed for this task (off when undefined). */
  timeLimitMs?: number;
  /** Tools the model must call in order, each until a call succeeds (see RequiredTools); names checked by the caller. */
  requireTools?: readonly string[];
  /** Context window, its gauge, provider words for errors, retry knobs, clock: see ModelCallOptions. */
  contextWindow?: ModelCallOptions["contextWindow"];
  gauge?: ModelCallOptions["gauge"];
  provider?: ModelCallOptions["provider"];
  retry?: ModelCallOptions["retry"];
  /** The model a call moves to once retries are exhausted on 429/5xx/overloaded (`--fallback`). */
  fallback?: ModelCallOptions["fallback"];
  now?: ModelCallOptions["now"];
}

/** How a task ended. The conversation has been extended and stays valid for the next request. */
export interface TaskResult {
  text: string;
  exitReason: ExitReason;
  partial: boolean;
  turns: number;
  toolCalls: number;
  usage: Usage;
  /** One-line reason when exitReason is "error". */
  error?: string;
  /** For a bug in tern: the stack, shown only with TERN_DEBUG=1. */
  debug?: string;
}

/** An all-zero usage. */
export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/**
 * Runs one user task to its end, appending to `conversation`. Never throws for model or tool failures: they
 * end the task with exitReason "error" (a fatal tool error too, after every call got a result).
 */
export async function runTask(
  conversation: Conversation,
  userText: string,
  options: LoopOptions,
): Promise<TaskResult> {
  const prompt = conversation.entries.length;
  conversation.append({ kind: "user", text: userText });
  // One gauge for the task at least, so what a call's usage taught is used by the next.
  options = { ...options, gauge: options.gauge ?? new RequestGauge(options.client) };
  const state: TaskState = { turns: 0, toolCalls: 0, usage: emptyUsage(), shown: "" };
  const budget = new TaskBudget(options, { now: options.now });
  const guard = new RunawayGuard();
  const required = new RequiredTools(options.requireTools);
  const end: End = (text, exitReason, failure) => {
    const partial = exitReason !== "done" && exitReason !== "error" && exitReason !== "cancelled";
    options.onEvent({ type: "final", text, exitReason, partial });
    const { turns, toolCalls, usage } = state;
    return { text, exitReason, partial, turns, toolCalls, usage, ...failure };
  };

  while (true) {
    const limit = budget.exceeded();
    if (limit) {
      options.onEvent({ type: "notice", level: "warn", message: `Stopping: ${budget.describe(limit)}.` });
      return await finalise(limit, conversation, state, options, end);
    }
    budget.recordRequest();
    let turn: AssistantTurn;
    try {
      const toolChoice = required.choice();
      turn = await callModel(conversation, options.registry.specs(), state, { ...options, toolChoice });
    } catch (error) {
      if (error instanceof ContextFullError) return contextFull(error, conversation, prompt, end);
      return failModelCall(error, conversation, state, options, end);
    }
    budget.recordUsage(turn.usage);
    const say = (message: Omit<AssistantMessageFields, "role">) =>
      conversation.append({ kind: "assistant", message: { role: "assistant", ...message } });
    if (turn.finishReason === "length") {
      // A cut answer is never presented as complete, and a cut tool call is never run.
      say({ content: turn.text });
      return end(turn.text, "length");
    }
    if (turn.toolCalls.length === 0) {
      if (turn.text.trim() === "") return end("", "error", { error: "the model returned an empty response" });
      say({ content: turn.text });
      return end(turn.text, "done");
    }
    // What the provider needs back (signatures, encrypted reasoning) rides along, opaque to the loop.
    const providerData = turn.providerData ? { providerData: turn.providerData } : {};
    const toolCalls = withUniqueIds(turn.toolCalls, usedCallIds(conversation.entries));
    say({ content: turn.text, reasoning: turn.reasoning, toolCalls, ...providerData });
    state.toolCalls += toolCalls.length;
    const runnable = toolCalls.slice(0, MAX_CALLS_PER_TURN);
    const { step, cancelled, fatal } = await runToolCalls(runnable, conversation, options);
    refuseOverCap(toolCalls, conversation, options);
    if (fatal) return end("", "error", { error: fatal.message, debug: stackOf(fatal) });
    if (cancelled) return end("", "cancelled");
    required.observe(step);
    if (applyVerdict(guard.observe(step), conversation, options) === "stop") {
      return await finalise("runaway", conversation, state, options, end);
    }
  }
}

type AssistantMessageFields = Extract<Conversation["entries"][number], { kind: "assistant" }>["message"];

interface TaskState extends CallState {
  toolCalls: number;
}

type End = (text: string, reason: ExitReason, failure?: { error?: string; debug?: string }) => TaskResult;

function stackOf(error: FatalToolError): string | undefined {
  const cause = error.cause;
  return cause instanceof Error ? cause.stack : error.stack;
}

/** Logs the runaway reminder as its own entry (sent after the result it belongs to); says whether to stop. */
function applyVerdict(
  verdict: RunawayVerdict,
  conversation: Conversation,
  options: LoopOptions,
): "stop" | "go" {
  if (verdict.action === "stop") {
    options.onEvent({ type: "notice", level: "warn", message: `Stopping: ${verdict.reason}.` });
    return "stop";
  }
  if (verdict.action === "remind") {
    conversation.append({ kind: "reminder", callId: verdict.callId, text: verdict.text });
    const message = "Reminded the model that repeating the same action or error is not progress.";
    options.onEvent({ type: "notice", level: "info", message });
  }
  return "go";
}

/** After an early stop: one more model call, offered no tools, for an honest report labelled partial. */
async function finalise(
  reason: EarlyStopReason,
  conversation: Conversation,
  state: TaskState,
  options: LoopOptions,
  end: End,
): Promise<TaskResult> {
  conversation.append({ kind: "user", text: finalisationText(reason), from: "tern" });
  try {
    const turn = await callModel(conversation, [], state, options);
    // Tool calls in the answer are dropped, never run: nothing runs after a stop.
    conversation.append({ kind: "assistant", message: { role: "assistant", content: turn.text } });
    return end(turn.text, reason);
  } catch (error) {
    return failModelCall(error, conversation, state, options, end, reason);
  }
}

/**
 * Nothing was sent because nothing made the request fit. A prompt that never got to the model is taken
 * back (a rewind), so the conversation can go on without it; a task that made steps keeps them.
 */
function contextFull(
  error: ContextFullError,
  conversation: Conversation,
  prompt: number,
  end: End,
): TaskResult {
  const stepped = conversation.entries.slice(prompt).some((entry) => entry.kind === "assistant");
  if (stepped) return end("", "context_full", { error: error.message });
  conversation.append({ kind: "rewind", to: prompt });
  return end("", "context_full", { error: `${error.message}; the message was not kept` });
}

/** Ends the task after a failed call; the log stays well-formed and keeps what the user saw. */
function failModelCall(
  error: unknown,
  conversation: Conversation,
  state: TaskState,
  options: LoopOptions,
  end: End,
  stopReason?: EarlyStopReason,
): TaskResult {
  if (error instanceof ContextFullError) return end("", "context_full", { error: error.message });
  const failure = describeFailure(error, state, options);
  conversation.append({ kind: "assistant", message: failure.kept });
  if (failure.cancelled) return end("", "cancelled");
  return end(state.shown, stopReason ?? "error", { error: failure.message });
}
