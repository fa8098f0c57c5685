/** The ReAct loop for one user task: model call → tool calls → results → model call, until an answer. */
import type { AssistantTurn, LlmClient, Message, ToolCall, Usage } from "../llm/types.ts";
import { type Registry, runPrepared } from "../tools/registry.ts";
import { resolveForWrite } from "../tools/path_guard.ts";
import { scheduleCalls } from "../tools/scheduler.ts";
import type { FileTracker, ShellSettings, ToolResult } from "../tools/tool.ts";
import { wrapToolResult } from "../tools/boundary.ts";
import type { ApprovalGate } from "./approval.ts";
import type { AgentEvent, ExitReason } from "./events.ts";
import { type EarlyStopReason, finalisationMessages, TaskBudget } from "./budget.ts";
import { callModel, type CallState, describeFailure, type ModelCallOptions } from "./model_call.ts";
import { RunawayGuard, type RunawayVerdict, type StepCall } from "./runaway.ts";

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
  /**
   * Whether execute_command with these arguments will run confined by the sandbox (with or without network);
   * absent = never: the approval policy then treats every command as unsandboxed and asks.
   */
  commandSandboxed?: (args: Record<string, unknown>) => boolean;
  /** Wall-clock milliseconds allowed for this task (off when undefined). */
  timeLimitMs?: number;
  /** Context window, provider words for errors, retry knobs, clock: see ModelCallOptions. */
  contextWindow?: ModelCallOptions["contextWindow"];
  provider?: ModelCallOptions["provider"];
  retry?: ModelCallOptions["retry"];
  now?: ModelCallOptions["now"];
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
  const state: TaskState = { turns: 0, toolCalls: 0, usage: emptyUsage(), shown: "" };
  const budget = new TaskBudget(options, { now: options.now });
  const guard = new RunawayGuard();
  const end: End = (text, exitReason, error) => {
    const partial = exitReason !== "done" && exitReason !== "error" && exitReason !== "cancelled";
    options.onEvent({ type: "final", text, exitReason, partial });
    const { turns, toolCalls, usage } = state;
    return { text, exitReason, partial, turns, toolCalls, usage, error };
  };

  while (true) {
    const limit = budget.exceeded();
    if (limit) {
      options.onEvent({ type: "notice", level: "warn", message: `Stopping: ${budget.describe(limit)}.` });
      return await finalise(limit, history, state, options, end);
    }
    budget.recordRequest();
    let turn: AssistantTurn;
    try {
      turn = await callModel(history, options.registry.specs(), state, options);
    } catch (error) {
      return failModelCall(error, history, state, options, end);
    }
    budget.recordUsage(turn.usage);
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
    const { step, cancelled } = await runToolCalls(turn.toolCalls, history, options);
    if (cancelled) return end("", "cancelled");
    if (applyVerdict(guard.observe(step), history, options) === "stop") {
      return await finalise("runaway", history, state, options, end);
    }
  }
}

interface TaskState extends CallState {
  toolCalls: number;
}

type End = (text: string, reason: ExitReason, error?: string) => TaskResult;

/** Appends the runaway reminder after (outside) the wrapped result it belongs to; says whether to stop. */
function applyVerdict(verdict: RunawayVerdict, history: Message[], options: LoopOptions): "stop" | "go" {
  if (verdict.action === "stop") {
    options.onEvent({ type: "notice", level: "warn", message: `Stopping: ${verdict.reason}.` });
    return "stop";
  }
  if (verdict.action === "remind") {
    const result = history.findLast((m) => m.role === "tool" && m.toolCallId === verdict.callId);
    if (result) result.content += `\n\n${verdict.text}`;
    const message = "Reminded the model that repeating the same action or error is not progress.";
    options.onEvent({ type: "notice", level: "info", message });
  }
  return "go";
}

/** After an early stop: one more model call, offered no tools, for an honest report labelled partial. */
async function finalise(
  reason: EarlyStopReason,
  history: Message[],
  state: TaskState,
  options: LoopOptions,
  end: End,
): Promise<TaskResult> {
  history.push(...finalisationMessages(reason));
  try {
    const turn = await callModel(history, [], state, options);
    // Tool calls in the answer are dropped, never run: nothing runs after a stop.
    history.push({ role: "assistant", content: turn.text });
    return end(turn.text, reason);
  } catch (error) {
    return failModelCall(error, history, state, options, end, reason);
  }
}

/** Ends the task after a failed call; the history stays well-formed and keeps what the user saw. */
function failModelCall(
  error: unknown,
  history: Message[],
  state: TaskState,
  options: LoopOptions,
  end: End,
  stopReason?: EarlyStopReason,
): TaskResult {
  const failure = describeFailure(error, state, options);
  history.push(failure.kept);
  if (failure.cancelled) return end("", "cancelled");
  return end(state.shown, stopReason ?? "error", failure.message);
}

/**
 * Runs one turn's calls through the scheduler (reads up to 4 at once, writes and commands alone, in the
 * model's order) and appends every result in the model's order, also when cancelled. `cancelled` is true
 * when the turn was stopped: by the user's signal, or by "abort this turn" at an approval prompt.
 */
async function runToolCalls(
  calls: ToolCall[],
  history: Message[],
  options: LoopOptions,
): Promise<{ step: StepCall[]; cancelled: boolean }> {
  const stop = new AbortController();
  const turn = { ...options, signal: AbortSignal.any([options.signal, stop.signal]) };
  const step: StepCall[] = [];
  const announced = new Set<number>();
  const announce = (call: ToolCall, index: number) => {
    if (announced.has(index)) return;
    announced.add(index);
    options.onEvent({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
  };
  await scheduleCalls<ToolCall, CallResult>(calls, {
    isReadOnly: (call) => options.registry.get(call.name)?.effect === "read",
    run: (call, index) => {
      announce(call, index);
      return runOneCall(call, turn, () => stop.abort());
    },
    cancelled: () => ({ content: CANCELLED, isError: true, executed: false }),
    onSettled: (result, call, index) => {
      announce(call, index);
      options.onEvent({
        type: "tool_result",
        id: call.id,
        name: call.name,
        content: result.content,
        isError: result.isError,
      });
      history.push({
        role: "tool",
        toolCallId: call.id,
        name: call.name,
        content: wrapToolResult(call.name, result.content),
        isError: result.isError,
      });
      step.push({
        ...call,
        content: result.content,
        isError: result.isError,
        executed: result.executed ?? true,
      });
    },
    signal: turn.signal,
  });
  return { step, cancelled: turn.signal.aborted };
}

/** `executed: false` marks a call that was denied, refused or never started: the runaway guard skips it. */
type CallResult = ToolResult & { executed?: boolean };

async function runOneCall(call: ToolCall, options: LoopOptions, abortTurn: () => void): Promise<CallResult> {
  // Validate before asking: nobody should approve a call that cannot run.
  const prepared = options.registry.prepare(call);
  if (!("tool" in prepared)) return prepared;
  const { tool, args } = prepared;
  if (tool.effect !== "read") {
    const decision = await options.approve({
      call,
      effect: tool.effect,
      args,
      sandboxed: tool.effect === "exec" && (options.commandSandboxed?.(args) ?? false),
      resolvedPath: tool.effect === "write" ? await realTarget(options.root, args) : undefined,
    });
    if (!decision.allow && decision.abort) abortTurn();
    if (!decision.allow) return { content: decision.reason, isError: true, executed: false };
    if (options.signal.aborted) return { content: CANCELLED, isError: true, executed: false };
  }
  options.onEvent({ type: "tool_start", id: call.id, name: call.name });
  const { root, signal, files, shell } = options;
  const result = await runPrepared(prepared, { root, signal, files, shell });
  // What a cancelled tool produced before it stopped is still worth showing the model next turn.
  if (options.signal.aborted) return { content: `${CANCELLED}\n${result.content}`, isError: true };
  return result;
}

/** Where a write lands, relative to the root with symlinks resolved: a link must not hide `.git` from approval. */
async function realTarget(root: string, args: Record<string, unknown>): Promise<string | undefined> {
  if (typeof args.path !== "string") return undefined;
  try {
    return (await resolveForWrite(root, args.path)).rel;
  } catch {
    return undefined; // the tool itself refuses such a path, and says why
  }
}
