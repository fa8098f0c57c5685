/**
 * One model call as the loop makes it: compaction near the context window, retries with `retry` events,
 * one compact-and-retry after a context-overflow error, and failures put into words.
 */
import type { AgentEvent } from "./events.ts";
import type { AssistantMessage, Conversation } from "./conversation.ts";
import { compactHistory, estimateTokens, shouldCompact } from "./compact.ts";
import { summariseConversation, SUMMARY_AT } from "./summarise.ts";
import {
  type CallContext,
  describeLlmError,
  emptyAnswerError,
  isContextOverflow,
  isEmptyAnswer,
  type RetryOptions,
  withRetries,
} from "../llm/retry.ts";
import {
  type AssistantTurn,
  type LlmClient,
  LlmError,
  type Message,
  type ToolChoice,
  type ToolSpec,
  type Usage,
} from "../llm/types.ts";

/** What a model call needs; LoopOptions carries all of it. */
export interface ModelCallOptions {
  client: LlmClient;
  model: string;
  signal: AbortSignal;
  onEvent: (event: AgentEvent) => void;
  /** The model's context window in tokens; enables history compaction (off when undefined). */
  contextWindow?: number;
  /** Provider name and key variable, so a failed call says what to fix. */
  provider?: Omit<CallContext, "model">;
  /** Attempts per model call (default 6) and the first backoff step; sleep and random are injectable for tests. */
  retry?: Pick<RetryOptions, "maxAttempts" | "baseDelayMs" | "sleep" | "random">;
  /** The clock (epoch ms) for Retry-After dates; injectable for tests. */
  now?: () => number;
  /** Which tool the model must call this time (the required-tool policy); absent: its choice. */
  toolChoice?: ToolChoice;
  /** Where a call goes once retries are exhausted on 429, 5xx or an overloaded server (`--fallback`). */
  fallback?: Fallback;
}

/** A second model for when the first is rate limited or down; used for that one call, which says so. */
export interface Fallback {
  client: LlmClient;
  model: string;
  /** Its name in the notice, e.g. "anthropic/claude-sonnet-4-5". */
  label: string;
}

/** Whether the fallback may take over: the server is overloaded or limited, and nothing was shown yet. */
function wantsFallback(error: unknown): boolean {
  if (!(error instanceof LlmError) || error.partialOutput || !error.retryable) return false;
  if (error.kind === "stream_error") return true; // overloaded_error, server_error, rate limits
  return error.kind === "http" && error.status !== undefined && (error.status === 429 || error.status >= 500);
}

/** The task's running counts, updated by each call, and the text the current call has shown so far. */
export interface CallState {
  turns: number;
  usage: Usage;
  shown: string;
}

/**
 * Runs one model call offering `tools`: logs a compaction when the conversation nears the context window,
 * retries transient failures, and after a context-overflow error compacts harder and tries once more.
 * Throws the call's LlmError otherwise; `state.shown` then holds what the user saw of this attempt.
 */
export async function callModel(
  conversation: Conversation,
  tools: ToolSpec[],
  state: CallState,
  options: ModelCallOptions,
): Promise<AssistantTurn> {
  let messages = conversation.messages();
  if (options.contextWindow !== undefined && shouldCompact(messages, options.contextWindow)) {
    compact(conversation, messages, options, false);
    messages = conversation.messages();
  }
  if (options.contextWindow !== undefined && estimateTokens(messages) > SUMMARY_AT * options.contextWindow) {
    await summarise(conversation, options);
    messages = conversation.messages();
  }
  try {
    return await streamWithRetries(messages, tools, state, options);
  } catch (error) {
    if (!isContextOverflow(error) || !compact(conversation, messages, options, true)) throw error;
    return await streamWithRetries(conversation.messages(), tools, state, options);
  }
}

async function streamWithRetries(
  history: Message[],
  tools: ToolSpec[],
  state: CallState,
  options: ModelCallOptions,
): Promise<AssistantTurn> {
  const request = {
    model: options.model,
    messages: history,
    tools,
    ...(options.toolChoice !== undefined && { toolChoice: options.toolChoice }),
  };
  state.turns++;
  options.onEvent({ type: "model_start", turn: state.turns });
  const attempts = (client: LlmClient, model: string) =>
    withRetries(async () => {
      state.shown = "";
      const turn = await client.stream({ ...request, model }, options.signal, (event) => {
        if (event.type === "text_delta") state.shown += event.text;
        if (event.type === "text_delta" || event.type === "reasoning_delta") options.onEvent(event);
      });
      if (isEmptyAnswer(turn)) throw emptyAnswerError(); // retried once
      return turn;
    }, {
      ...options.retry,
      signal: options.signal,
      now: options.now,
      onRetry: (info) => options.onEvent({ type: "retry", ...info }),
    });
  let turn: AssistantTurn;
  try {
    turn = await attempts(options.client, options.model);
  } catch (error) {
    const fallback = options.fallback;
    if (!fallback || !wantsFallback(error) || options.signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    options.onEvent({ type: "notice", level: "warn", message: `${why}; continuing on ${fallback.label}.` });
    turn = await attempts(fallback.client, fallback.model);
  }
  if (turn.usage) {
    state.usage = addUsage(state.usage, turn.usage);
    options.onEvent({ type: "usage", usage: turn.usage, total: state.usage });
  }
  return turn;
}

/**
 * Logs which old tool outputs to drop (and which calls' long arguments to abbreviate) to fit the context
 * window, with a notice; true when enough was freed. The log keeps everything; requests show the compaction.
 */
function compact(
  conversation: Conversation,
  messages: Message[],
  options: ModelCallOptions,
  afterOverflow: boolean,
): boolean {
  if (options.contextWindow === undefined) return false;
  const result = compactHistory(messages, { contextWindow: options.contextWindow, afterOverflow });
  if (result.droppedOutputs + result.abbreviatedCalls > 0) {
    conversation.append({ kind: "compaction", ...changedIds(messages, result.messages) });
    const what = `dropped ${result.droppedOutputs} old tool output(s) to fit the context window ` +
      `(about ${result.tokensBefore} → ${result.tokensAfter} tokens)`;
    const message = afterOverflow
      ? `The request was too long: ${what}; trying once more.`
      : `Context: ${what}.`;
    options.onEvent({ type: "notice", level: afterOverflow ? "warn" : "info", message });
  }
  return result.fits;
}

/**
 * Dropping outputs was not enough: condenses the older turns into a summary with one tool-less call. A
 * failed summary leaves the dropped outputs as the only compaction, and says so.
 */
async function summarise(conversation: Conversation, options: ModelCallOptions): Promise<void> {
  try {
    const done = await summariseConversation(conversation, {
      client: options.client,
      model: options.model,
      signal: options.signal,
      contextWindow: options.contextWindow!,
    });
    if (done === null) return;
    const message = `Context: summarised ${done.summarised} older entries ` +
      `(about ${done.tokensBefore} → ${done.tokensAfter} tokens).`;
    options.onEvent({ type: "notice", level: "info", message });
  } catch (error) {
    if (options.signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const message = `Context: the summary failed (${why}); only old tool outputs were dropped.`;
    options.onEvent({ type: "notice", level: "warn", message });
  }
}

/** The ids of the tool results and tool calls that compaction rewrote. */
function changedIds(
  before: Message[],
  after: Message[],
): { droppedOutputs: string[]; abbreviatedCalls: string[] } {
  const droppedOutputs: string[] = [];
  const abbreviatedCalls: string[] = [];
  after.forEach((message, i) => {
    const old = before[i];
    if (message === old) return;
    if (message.role === "tool") droppedOutputs.push(message.toolCallId);
    if (message.role === "assistant" && old.role === "assistant") {
      message.toolCalls?.forEach((call, k) => {
        if (call !== old.toolCalls?.[k]) abbreviatedCalls.push(call.id);
      });
    }
  });
  return { droppedOutputs, abbreviatedCalls };
}

/** A failed call in words: whether it was a cancellation, the line for the user, the history marker. */
export interface CallFailure {
  cancelled: boolean;
  /** One line for the user (TaskResult.error). */
  message: string;
  /** The assistant message that keeps the history well-formed, with any text already shown kept in it. */
  kept: AssistantMessage;
}

/** Describes a failed model call; an interrupted answer's shown text is kept, marked as interrupted. */
export function describeFailure(error: unknown, state: CallState, options: ModelCallOptions): CallFailure {
  const cancelled = options.signal.aborted || (error instanceof LlmError && error.kind === "aborted");
  const context = { provider: "the provider", ...options.provider, model: options.model };
  const failure = cancelled ? "cancelled by the user" : describeLlmError(error, context).message;
  const before = state.shown.trim() === "" ? "" : `${state.shown}\n\n`;
  const interrupted = error instanceof LlmError && error.partialOutput;
  return {
    cancelled,
    message: interrupted ? `the answer was interrupted (${failure}); what arrived is kept` : failure,
    kept: { role: "assistant", content: `${before}[interrupted: ${failure}]` },
  };
}

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
  const written = sum(a.cacheWriteTokens, b.cacheWriteTokens);
  const reasoning = sum(a.reasoningTokens, b.reasoningTokens);
  if (cached !== undefined) out.cachedTokens = cached;
  if (written !== undefined) out.cacheWriteTokens = written;
  if (reasoning !== undefined) out.reasoningTokens = reasoning;
  return out;
}
