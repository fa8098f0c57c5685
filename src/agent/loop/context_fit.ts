/**
 * Every request fits the context window, decided before it is sent. The request is measured as the wire in
 * use serialises it (see RequestGauge); past COMPACT_AT of the window it is made smaller first: old tool
 * outputs dropped, then a new tool result that cannot fit even beside a summary cut (its whole text saved
 * to a file the model can page), then the older turns summarised, then the new results cut to the room that
 * is left (result_cut.ts). A request still over the window is never sent: ContextFullError says why, in one
 * line. What `/context` shows of this is context_preview.ts.
 */
import type { ChatRequest, LlmClient, Message } from "../../llm/types.ts";
import type { AgentEvent } from "../events.ts";
import { COMPACT_AT, compactHistory } from "../log/compact.ts";
import type { Conversation } from "../log/conversation.ts";
import { cutNewResults } from "./result_cut.ts";
import type { RequestGauge, RequestSize } from "./request_gauge.ts";
import { planSummary, summariseConversation } from "../log/summarise.ts";

/** Room a summary is given when deciding whether new results can fit beside one (share of the window). */
const SUMMARY_ROOM = 0.15;

/** Nothing makes the request fit the window: the task stops (exit 3) with this one-line message. */
export class ContextFullError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContextFullError";
  }
}

/** What fitting a request needs. */
export interface FitOptions {
  client: LlmClient;
  model: string;
  contextWindow: number;
  gauge: RequestGauge;
  signal: AbortSignal;
  onEvent: (event: AgentEvent) => void;
  /** The project root, where a cut result's whole text is saved; without it the note says it was not saved. */
  root?: string;
}

/** A request ready to send and its measured size. */
export interface FittedRequest {
  request: ChatRequest;
  size: RequestSize;
}

/**
 * The conversation's next request (`base` plus its messages), compacted first when it would pass
 * COMPACT_AT of the window; every step is logged, so later requests keep it. Throws ContextFullError when
 * even the compacted request is over the window, and the summary call's error only on cancellation.
 */
export async function fitRequest(
  conversation: Conversation,
  base: Omit<ChatRequest, "messages">,
  options: FitOptions,
): Promise<FittedRequest> {
  const limit = COMPACT_AT * options.contextWindow;
  const build = (): FittedRequest => {
    const request = { ...base, messages: conversation.messages() };
    return { request, size: options.gauge.measure(request) };
  };
  let fitted = build();
  if (fitted.size.tokens <= limit) return fitted;
  const before = fitted.size.tokens;
  const dropped = dropOldOutputs(conversation, fitted, options);
  fitted = build();
  if (dropped > 0) say(options, `dropped ${dropped} old tool output(s)`, before, fitted.size.tokens);
  if (fitted.size.tokens <= limit) return fitted;
  // A new result that could not fit even if everything older became a summary is cut before summarising.
  const older = planSummary(conversation, { contextWindow: options.contextWindow }) !== null;
  const room = limit - (older ? SUMMARY_ROOM * options.contextWindow : 0);
  if (await cutNewResults(conversation, base, { room, besideSummary: true }, options)) fitted = build();
  if (fitted.size.tokens <= limit) return fitted;
  await summarise(conversation, base, fitted.size.tokens - limit, options);
  fitted = build();
  if (fitted.size.tokens <= limit) return fitted;
  if (await cutNewResults(conversation, base, { room: limit }, options)) fitted = build();
  if (fitted.size.tokens > options.contextWindow) throw new ContextFullError(tooLarge(fitted, base, options));
  return fitted;
}

function say(options: FitOptions, what: string, before: number, after: number): void {
  const window = options.contextWindow.toLocaleString("en-US");
  const n = (tokens: number) => tokens.toLocaleString("en-US");
  const message = `Context: ${what} (about ${n(before)} → ${n(after)} tokens of the ${window}-token window).`;
  options.onEvent({ type: "notice", level: "info", message });
}

/** Logs which old tool outputs to drop and which old calls to abbreviate; returns how many outputs. */
function dropOldOutputs(conversation: Conversation, fitted: FittedRequest, options: FitOptions): number {
  const { messages } = fitted.request;
  const tokensOf = (message: Message) => options.gauge.messageTokens(message);
  const inMessages = messages.reduce((sum, message) => sum + tokensOf(message), 0);
  const result = compactHistory(messages, {
    contextWindow: options.contextWindow,
    tokensOf,
    reserved: Math.max(0, fitted.size.tokens - inMessages),
  });
  if (result.droppedOutputs + result.abbreviatedCalls === 0) return 0;
  conversation.append({ kind: "compaction", ...changedIds(messages, result.messages) });
  return result.droppedOutputs;
}

/** The ids of the tool results and tool calls that compaction rewrote. */
export function changedIds(
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

/**
 * Dropping outputs was not enough: condenses the older turns into a summary with one tool-less call (when
 * they are worth more than a summary would take). The usual cut keeps the recent turns; when that would not
 * free the `excess` tokens, only the latest step is kept. A failed summary is said, and the fitting goes on.
 */
async function summarise(
  conversation: Conversation,
  base: Omit<ChatRequest, "messages">,
  excess: number,
  options: FitOptions,
): Promise<void> {
  const window = options.contextWindow;
  const usual = planSummary(conversation, {
    contextWindow: window,
    tokensPerByte: options.gauge.tokensPerByte,
  });
  const enough = usual !== null && usual.tokens >= excess + SUMMARY_ROOM * window;
  try {
    const done = await summariseConversation(conversation, {
      client: options.client,
      model: options.model,
      signal: options.signal,
      contextWindow: options.contextWindow,
      gauge: options.gauge,
      tools: base.tools,
      worthAtLeast: SUMMARY_ROOM * options.contextWindow,
      ...(!enough && { keepFraction: 0 }),
    });
    if (done !== null) {
      say(options, `summarised ${done.summarised} older entries`, done.tokensBefore, done.tokensAfter);
    }
  } catch (error) {
    if (options.signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const message = `Context: the summary failed (${why}); only old tool outputs were dropped.`;
    options.onEvent({ type: "notice", level: "warn", message });
  }
}

/** The one line for a request that cannot fit: its size, the window, and what takes the room. */
function tooLarge(fitted: FittedRequest, base: Omit<ChatRequest, "messages">, options: FitOptions): string {
  const n = (tokens: number) => tokens.toLocaleString("en-US");
  const [system, ...history] = fitted.request.messages;
  const fixed = options.gauge.measure({ ...base, messages: [system] }).tokens;
  const lastUser = history.findLast((message) => message.role === "user");
  const prompt = lastUser ? `, the latest message ${n(options.gauge.messageTokens(lastUser))}` : "";
  return `the request does not fit the context window even after compaction: about ` +
    `${n(fitted.size.tokens)} tokens, and ${options.model}'s window holds ${n(options.contextWindow)} ` +
    `(system prompt and tools ${n(fixed)}${prompt}); use a model with a larger window, ` +
    `a shorter message, or a new conversation`;
}
