/** The ReAct loop for one user task: model call → tool calls → results → model call, until an answer. */
import type { AssistantTurn, Usage } from "../../llm/types.ts";
import type { FatalToolError } from "../../tools/tool.ts";
import type { Conversation } from "../log/conversation.ts";
import type { ExitReason } from "../events.ts";
import { type EarlyStopReason, finalisationText, TaskBudget } from "./budget.ts";
import type { LoopOptions } from "./loop_options.ts";
import { ContextFullError } from "./context_fit.ts";
import { addUsage, callModel, type CallState, describeFailure } from "./model_call.ts";
import { RequestGauge } from "./request_gauge.ts";
import { RequiredTools } from "./required_tools.ts";
import { RunawayGuard, type RunawayVerdict } from "./runaway.ts";
import { cutCallsText, MAX_CALLS_PER_TURN, usedCallIds, withUniqueIds } from "./protocol.ts";
import { refuseOverCap, runToolCalls } from "./tool_calls.ts";

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
  const images = options.images?.length ? { images: options.images } : {};
  conversation.append({ kind: "user", text: userText, ...images });
  if (options.context) conversation.append({ kind: "user", text: options.context, from: "tern" });
  // One gauge for the task at least, so what a call's usage taught is used by the next.
  options = { ...options, gauge: options.gauge ?? new RequestGauge(options.client) };
  const state: TaskState = {
    turns: 0,
    toolCalls: 0,
    usage: emptyUsage(),
    shown: "",
    cutAnswers: 0,
    stopContinues: 0,
    prompt,
  };
  const budget = options.budget ?? new TaskBudget(options, { now: options.now });
  const end: End = (text, exitReason, failure) => {
    const partial = exitReason !== "done" && exitReason !== "error" && exitReason !== "cancelled";
    options.onEvent({ type: "final", text, exitReason, partial });
    const { turns, toolCalls } = state;
    // The task's usage is its sub-agents' too: they ran for it.
    const usage = addUsage(state.usage, budget.childUsage);
    return { text, exitReason, partial, turns, toolCalls, usage, ...failure };
  };
  // The time limit stops a running command or model call, not only the next step.
  const deadline = budget.deadline();
  const timed = { ...options, signal: AbortSignal.any([options.signal, deadline.signal]) };
  try {
    const outcome = await steps(conversation, state, budget, timed);
    if ("end" in outcome) return end(outcome.end.text, outcome.end.reason, outcome.end.failure);
    const why = outcome.stop === "runaway" ? outcome.why : budget.describe(outcome.stop);
    options.onEvent({ type: "notice", level: "warn", message: `Stopping: ${why}.` });
    return await finalise(outcome.stop, conversation, state, options, end);
  } finally {
    deadline.stop();
  }
}

/** How the steps of a task ended: an early stop that wants a report, or an end as it is. */
type StepsOutcome = { stop: EarlyStopReason; why?: string } | { end: Ending };

/** The end of a task as it is: its text, why it ended, and for a failure the error. */
interface Ending {
  text: string;
  reason: ExitReason;
  failure?: { error?: string; debug?: string };
}

/** Model call → tool calls, until an answer, a failure or an early stop; `options.signal` includes the deadline. */
async function steps(
  conversation: Conversation,
  state: TaskState,
  budget: TaskBudget,
  options: LoopOptions,
): Promise<StepsOutcome> {
  const guard = new RunawayGuard();
  const required = new RequiredTools(options.requireTools);
  while (true) {
    const limit = budget.exceeded();
    if (limit) return { stop: limit };
    budget.recordRequest();
    let turn: AssistantTurn;
    try {
      turn = await callModel(conversation, options.registry.specs(), state, {
        ...options,
        toolChoice: required.choice(),
      });
    } catch (error) {
      if (budget.timedOut) return { stop: "time_budget" };
      if (error instanceof ContextFullError) return { end: contextFull(error, conversation, state.prompt) };
      return { end: failModelCall(error, conversation, state, options) };
    }
    budget.recordUsage(turn.usage);
    const answered = answer(turn, conversation, state, options);
    if (answered === "again") continue; // a cut call: the model was told, and tries again
    if (answered) {
      if (await sentBackToWork(answered.end, conversation, state, options)) continue;
      return answered;
    }
    const { step, cancelled, fatal } = await runCalls(turn, conversation, state, options);
    if (fatal) {
      return { end: { text: "", reason: "error", failure: { error: fatal.message, debug: stackOf(fatal) } } };
    }
    if (cancelled) {
      return budget.timedOut ? { stop: "time_budget" } : { end: { text: "", reason: "cancelled" } };
    }
    required.observe(step);
    const verdict = guard.observe(step);
    if (applyVerdict(verdict, conversation, options) === "stop") {
      return { stop: "runaway", why: verdict.action === "stop" ? verdict.reason : "" };
    }
  }
}

/** Cut answers in one task after which tern stops telling the model and ends the task as cut. */
const MAX_CUT_ANSWERS = 3;

/**
 * Logs an answer without tool calls and says how the task ends; a cut answer ends as "length" (never
 * presented as complete), unless it was cut while writing tool calls: those are not run, the model is told,
 * and the loop asks again ("again"). Undefined: the answer's calls are to run.
 */
function answer(
  turn: AssistantTurn,
  conversation: Conversation,
  state: TaskState,
  options: LoopOptions,
): { end: Ending } | "again" | undefined {
  const say = (content: string) =>
    conversation.append({ kind: "assistant", message: { role: "assistant", content } });
  if (turn.finishReason === "length") {
    if (turn.toolCalls.length === 0 || ++state.cutAnswers > MAX_CUT_ANSWERS) {
      say(turn.text);
      return { end: { text: turn.text, reason: "length" } };
    }
    const names = [...new Set(turn.toolCalls.map((call) => call.name))].join(", ");
    say(turn.text);
    conversation.append({ kind: "user", text: cutCallsText(names), from: "tern" });
    const message = `The answer was cut by the output limit while writing a call to ${names}: ` +
      "not run; the model was told to send it again, smaller.";
    options.onEvent({ type: "notice", level: "warn", message });
    return "again";
  }
  if (turn.toolCalls.length > 0) return undefined;
  if (turn.text.trim() === "") {
    return { end: { text: "", reason: "error", failure: { error: "the model returned an empty response" } } };
  }
  say(turn.text);
  return { end: { text: turn.text, reason: "done" } };
}

/** Logs the answer with its calls and runs them (at most MAX_CALLS_PER_TURN; the rest are refused). */
async function runCalls(
  turn: AssistantTurn,
  conversation: Conversation,
  state: TaskState,
  options: LoopOptions,
) {
  // What the provider needs back (signatures, encrypted reasoning) rides along, opaque to the loop.
  const providerData = turn.providerData ? { providerData: turn.providerData } : {};
  const toolCalls = withUniqueIds(turn.toolCalls, usedCallIds(conversation.entries));
  const message = { role: "assistant" as const, content: turn.text, reasoning: turn.reasoning, toolCalls };
  conversation.append({ kind: "assistant", message: { ...message, ...providerData } });
  state.toolCalls += toolCalls.length;
  const outcome = await runToolCalls(toolCalls.slice(0, MAX_CALLS_PER_TURN), conversation, options);
  refuseOverCap(toolCalls, conversation, options);
  return outcome;
}

interface TaskState extends CallState {
  toolCalls: number;
  /** Answers cut by the output limit while writing tool calls, so far. */
  cutAnswers: number;
  /** Times a Stop hook sent the model back to work, so far. */
  stopContinues: number;
  /** The index of the task's prompt in the log (taken back when nothing could be sent). */
  prompt: number;
}

type End = (text: string, reason: ExitReason, failure?: { error?: string; debug?: string }) => TaskResult;

function stackOf(error: FatalToolError): string | undefined {
  const cause = error.cause;
  return cause instanceof Error ? cause.stack : error.stack;
}

/** True when a Stop hook sent the model back to work after its answer (its reason is logged for the model). */
async function sentBackToWork(
  end: Ending,
  conversation: Conversation,
  state: TaskState,
  options: LoopOptions,
): Promise<boolean> {
  if (!options.hooks || end.reason !== "done") return false;
  const warn = (message: string) => options.onEvent({ type: "notice", level: "warn", message });
  const reason = await options.hooks.stop(end.text, state.stopContinues, { signal: options.signal, warn });
  if (reason === undefined || options.signal.aborted) return false;
  state.stopContinues++;
  conversation.append({ kind: "user", text: reason, from: "tern" });
  options.onEvent({ type: "notice", level: "info", message: "A Stop hook sent the model back to work." });
  return true;
}

/** Logs the runaway reminder as its own entry (sent after the result it belongs to); says whether to stop. */
function applyVerdict(
  verdict: RunawayVerdict,
  conversation: Conversation,
  options: LoopOptions,
): "stop" | "go" {
  if (verdict.action === "stop") return "stop";
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
  const turns = state.turns; // the report is not one of the task's turns: --max-turns 1 reports 1
  try {
    // The same tools as every request before, so the provider's prompt cache still holds the whole prefix
    // (a request without them would be a new prompt); a model that answers with calls alone, which never
    // run, is asked once more with no tools at all.
    let turn = await callModel(conversation, options.registry.specs(), state, options);
    if (turn.text.trim() === "" && turn.toolCalls.length > 0) {
      turn = await callModel(conversation, [], state, options);
    }
    state.turns = turns;
    // Tool calls in the answer are dropped, never run: nothing runs after a stop.
    conversation.append({ kind: "assistant", message: { role: "assistant", content: turn.text } });
    return end(turn.text, reason);
  } catch (error) {
    state.turns = turns;
    const failed = failModelCall(error, conversation, state, options);
    return end(failed.text, failed.reason === "cancelled" ? "cancelled" : reason, failed.failure);
  }
}

/**
 * Nothing was sent because nothing made the request fit. A prompt that never got to the model is taken
 * back (a rewind), so the conversation can go on without it; a task that made steps keeps them.
 */
function contextFull(error: ContextFullError, conversation: Conversation, prompt: number): Ending {
  const stepped = conversation.entries.slice(prompt).some((entry) => entry.kind === "assistant");
  if (stepped) return { text: "", reason: "context_full", failure: { error: error.message } };
  conversation.append({ kind: "rewind", to: prompt });
  return {
    text: "",
    reason: "context_full",
    failure: { error: `${error.message}; the message was not kept` },
  };
}

/** How a task ends after a failed call; the log stays well-formed and keeps what the user saw. */
function failModelCall(
  error: unknown,
  conversation: Conversation,
  state: TaskState,
  options: LoopOptions,
): Ending {
  if (error instanceof ContextFullError) {
    return { text: "", reason: "context_full", failure: { error: error.message } };
  }
  const failure = describeFailure(error, state, options);
  conversation.append({ kind: "assistant", message: failure.kept });
  if (failure.cancelled) return { text: "", reason: "cancelled" };
  return { text: state.shown, reason: "error", failure: { error: failure.message } };
}
