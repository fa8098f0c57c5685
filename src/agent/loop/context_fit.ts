/**
 * Every request fits the context window, decided before it is sent. The request is measured as the wire in
 * use serialises it (see RequestGauge); past COMPACT_AT of the window it is made smaller first: old tool
 * outputs dropped, then a new tool result that cannot fit even beside a summary cut (its whole text saved
 * to a file the model can page), then the older turns summarised, then the new results cut to the room that
 * is left. A request still over the window is never sent: ContextFullError says why, in one line.
 */
import type { ChatRequest, LlmClient, Message } from "../../llm/types.ts";
import { spillText } from "../../tools/spill.ts";
import type { AgentEvent } from "../events.ts";
import { COMPACT_AT, compactHistory, type CutOutput } from "../log/compact.ts";
import type { Conversation, Entry } from "../log/conversation.ts";
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

/**
 * Cuts the latest step's tool results so the request fits within `target.room` tokens: each gets an equal
 * share of what the rest of the request leaves (a result smaller than its share keeps all of it and passes
 * the remainder on), its whole text saved under `.tern/tool-outputs/`. With `besideSummary` the rest is
 * only what a summary cannot replace: the system prompt, tools, the latest prompt and the latest step.
 * Logged as one compaction; true when something was cut.
 */
async function cutNewResults(
  conversation: Conversation,
  base: Omit<ChatRequest, "messages">,
  target: { room: number; besideSummary?: boolean },
  options: FitOptions,
): Promise<boolean> {
  const latest = latestResults(conversation);
  if (latest.length === 0) return false;
  const { gauge } = options;
  const messages = conversation.messages();
  const shown = new Map(
    messages.flatMap((message) => message.role === "tool" ? [[message.toolCallId, message.content]] : []),
  );
  const current = latest.map((entry) => ({
    entry,
    tokens: gauge.tokens(shown.get(entry.callId)?.length ?? 0),
  }));
  const emptied = (target.besideSummary ? unsummarisable(messages) : messages).map((message) =>
    message.role === "tool" && latest.some((entry) => entry.callId === message.toolCallId)
      ? { ...message, content: "" }
      : message
  );
  // Each cut result carries a note of about 100 tokens: left out of the share.
  let left = target.room - gauge.measure({ ...base, messages: emptied }).tokens - 100 * latest.length;
  const budget = new Map<string, number>();
  const bySize = [...current].sort((a, b) => a.tokens - b.tokens);
  bySize.forEach(({ entry, tokens }, i) => {
    const share = Math.max(0, Math.floor(left / (bySize.length - i)));
    budget.set(entry.callId, Math.min(tokens, share));
    left -= Math.min(tokens, share);
  });
  const cuts: CutOutput[] = [];
  for (const { entry, tokens } of current) {
    const keepTokens = budget.get(entry.callId)!;
    if (keepTokens >= tokens) continue;
    // Characters of tern's text become more bytes on the wire (escapes): aim a tenth lower.
    const keepChars = Math.floor(0.9 * keepTokens / gauge.tokensPerByte);
    if (keepChars >= entry.content.length) continue;
    cuts.push({ callId: entry.callId, keepChars, ...await saved(entry, options.root) });
  }
  if (cuts.length === 0) return false;
  conversation.append({ kind: "compaction", droppedOutputs: [], abbreviatedCalls: [], cutOutputs: cuts });
  for (const cut of cuts) {
    const entry = latest.find((result) => result.callId === cut.callId)!;
    const where = cut.savedAs ? `; all of it is in ${cut.savedAs}` : "";
    const message = `Context: cut the output of ${entry.name} to fit the context window ` +
      `(${entry.content.length.toLocaleString("en-US")} → ${cut.keepChars.toLocaleString("en-US")} ` +
      `characters${where}).`;
    options.onEvent({ type: "notice", level: "info", message });
  }
  return true;
}

/** What no summary replaces: the system prompt, the latest user message and the latest step. */
function unsummarisable(messages: Message[]): Message[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === "assistant");
  const lastUser = messages.findLastIndex((message, i) => message.role === "user" && i < lastAssistant);
  return [messages[0], ...(lastUser > 0 ? [messages[lastUser]] : []), ...messages.slice(lastAssistant)];
}

type ToolResultEntry = Extract<Entry, { kind: "tool_result" }>;

/** The results of the latest step: the tool results after the last assistant message, if it ends the log. */
function latestResults(conversation: Conversation): ToolResultEntry[] {
  const { indices } = conversation.live();
  const entries = indices.map((i) => conversation.entries[i]);
  const lastAssistant = entries.findLastIndex((entry) => entry.kind === "assistant");
  const lastUser = entries.findLastIndex((entry) => entry.kind === "user");
  if (lastAssistant < 0 || lastUser > lastAssistant) return [];
  return entries.slice(lastAssistant + 1).filter((entry): entry is ToolResultEntry =>
    entry.kind === "tool_result"
  );
}

/** Where the whole result can be read: the tool's own spill file, or one written now (none when it fails). */
async function saved(
  entry: ToolResultEntry,
  root?: string,
): Promise<Omit<CutOutput, "callId" | "keepChars">> {
  if (entry.details?.spilledTo) return { savedAs: entry.details.spilledTo };
  if (root === undefined) return {};
  try {
    return { savedAs: await spillText(root, entry.name, entry.content), exact: true };
  } catch {
    return {};
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

/** What `/context` shows: the next request's estimate, where it goes, and what compaction would take. */
export interface ContextPreview {
  /** The next request as it stands (before the next message), measured on the wire in use. */
  size: RequestSize;
  /** Compaction starts past this many tokens (COMPACT_AT of the window). */
  limit: number;
  /** Tokens of the system prompt, of the tool schemas, and of the conversation. */
  parts: { system: number; tools: number; history: number };
  /** True when the next request compacts first; then `drop` is what it drops, else what it could drop. */
  now: boolean;
  /** Old tool outputs (oldest first) compaction drops, and about how many tokens that frees. */
  drop: { outputs: number; tokens: number };
  /** The older entries a summary would replace, when there are any. */
  summary: { entries: number; tokens: number } | null;
}

/** The preview of the next request's compaction; changes nothing. */
export function previewContext(
  conversation: Conversation,
  base: Omit<ChatRequest, "messages">,
  options: Pick<FitOptions, "contextWindow" | "gauge">,
): ContextPreview {
  const { gauge, contextWindow } = options;
  const messages = conversation.messages();
  const size = gauge.measure({ ...base, messages });
  const system = gauge.measure({ ...base, tools: [], messages: messages.slice(0, 1) }).tokens;
  const tools = gauge.measure({ ...base, messages: messages.slice(0, 1) }).tokens - system;
  const limit = COMPACT_AT * contextWindow;
  const now = size.tokens > limit;
  const tokensOf = (message: Message) => gauge.messageTokens(message);
  const inMessages = messages.reduce((sum, message) => sum + tokensOf(message), 0);
  // Not due yet: every output old enough to be dropped counts (a window of 0 leaves none out).
  const dropped = compactHistory(messages, {
    contextWindow: now ? contextWindow : 0,
    tokensOf,
    reserved: Math.max(0, size.tokens - inMessages),
  });
  const plan = planSummary(conversation, { contextWindow, tokensPerByte: gauge.tokensPerByte });
  return {
    size,
    limit,
    parts: { system, tools, history: size.tokens - system - tools },
    now,
    drop: { outputs: dropped.droppedOutputs, tokens: dropped.tokensBefore - dropped.tokensAfter },
    summary: plan && { entries: plan.count, tokens: plan.tokens },
  };
}
