/** `/context`'s view of the next request: its size on the wire in use, its parts, and what compaction would take. */
import type { ChatRequest, Message } from "../../llm/types.ts";
import { COMPACT_AT, compactHistory } from "../log/compact.ts";
import type { Conversation } from "../log/conversation.ts";
import { planSummary } from "../log/summarise.ts";
import type { RequestGauge, RequestSize } from "./request_gauge.ts";

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
  options: { contextWindow: number; gauge: RequestGauge },
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
