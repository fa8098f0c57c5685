/**
 * One model call as the loop makes it: the request fitted into the context window before it is sent,
 * retries with `retry` events, one compact-and-retry after a context-overflow error, and failures put into
 * words.
 */
import type { AgentEvent } from "../events.ts";
import type { AssistantMessage, Conversation } from "../log/conversation.ts";
import { compactHistory } from "../log/compact.ts";
import { changedIds, fitRequest, type FittedRequest } from "./context_fit.ts";
import { RequestGauge } from "./request_gauge.ts";
import {
  type CallContext,
  describeLlmError,
  emptyAnswerError,
  isContextOverflow,
  isEmptyAnswer,
  type RetryOptions,
  withRetries,
} from "../../llm/retry.ts";
import {
  type AssistantTurn,
  type LlmClient,
  LlmError,
  type ToolChoice,
  type ToolSpec,
  type Usage,
} from "../../llm/types.ts";

/** What a model call needs; LoopOptions carries all of it. */
export interface ModelCallOptions {
  client: LlmClient;
  model: string;
  signal: AbortSignal;
  onEvent: (event: AgentEvent) => void;
  /** The model's context window in tokens; enables history compaction (off when undefined). */
  contextWindow?: number;
  /** Measures requests on `client`'s wire and learns from its usage; one per model (default: a fresh one). */
  gauge?: RequestGauge;
  /** The project root: where the whole text of a tool result cut to fit the window is saved. */
  root?: string;
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
 * Runs one model call offering `tools`: fits the request into the context window first (see fitRequest),
 * retries transient failures, and after a context-overflow error compacts harder and tries once more.
 * Throws ContextFullError when the request cannot fit, the call's LlmError otherwise; `state.shown` then
 * holds what the user saw of this attempt.
 */
export async function callModel(
  conversation: Conversation,
  tools: ToolSpec[],
  state: CallState,
  options: ModelCallOptions,
): Promise<AssistantTurn> {
  const gauge = options.gauge ?? new RequestGauge(options.client);
  const base = {
    model: options.model,
    tools,
    ...(options.toolChoice !== undefined && { toolChoice: options.toolChoice }),
  };
  const fit = async (): Promise<FittedRequest> => {
    if (options.contextWindow === undefined) {
      const request = { ...base, messages: conversation.messages() };
      return { request, size: gauge.measure(request) };
    }
    return await fitRequest(conversation, base, { ...options, contextWindow: options.contextWindow, gauge });
  };
  const first = await fit();
  try {
    return await streamWithRetries(first, state, { ...options, gauge });
  } catch (error) {
    if (!isContextOverflow(error) || !compactAfterOverflow(conversation, first, options)) throw error;
    return await streamWithRetries(await fit(), state, { ...options, gauge });
  }
}

async function streamWithRetries(
  fitted: FittedRequest,
  state: CallState,
  options: ModelCallOptions & { gauge: RequestGauge },
): Promise<AssistantTurn> {
  const { request } = fitted;
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
    // The model's own count of this very request: the estimate of the next one learns from it.
    options.gauge.calibrate(fitted.size, turn.usage);
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
 * The provider said the request was too long although the estimate fitted: logs old tool outputs to drop
 * (at least a quarter of the estimate), with a notice; true when enough was freed to try once more.
 */
function compactAfterOverflow(
  conversation: Conversation,
  fitted: FittedRequest,
  options: ModelCallOptions,
): boolean {
  if (options.contextWindow === undefined) return false;
  const messages = fitted.request.messages;
  const result = compactHistory(messages, { contextWindow: options.contextWindow, afterOverflow: true });
  if (result.droppedOutputs + result.abbreviatedCalls > 0) {
    conversation.append({ kind: "compaction", ...changedIds(messages, result.messages) });
    const message = `The request was too long: dropped ${result.droppedOutputs} old tool output(s) ` +
      `(about ${result.tokensBefore} → ${result.tokensAfter} tokens); trying once more.`;
    options.onEvent({ type: "notice", level: "warn", message });
  }
  return result.fits;
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
