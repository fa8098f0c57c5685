/**
 * History compaction: when the conversation nears the model's context window, drop the oldest tool outputs
 * first (and then the bulk of old tool-call arguments), keeping every call paired with exactly one result;
 * and the view of one tool result cut to fit. Pure: it returns a new history and never touches the system
 * prompt, the last user message or the latest step.
 */
import { IMAGE_TOKENS, type Message, type ToolCall } from "../../llm/types.ts";
import { safeIndex } from "../../tools/_truncate.ts";

/** What a dropped tool output reads as; the call/result pairing stays intact. */
export const DROPPED_OUTPUT = "[output dropped to fit the context window; run the tool again if needed]";
/** What a long string inside old tool-call arguments reads as once dropped (the JSON stays valid). */
export const DROPPED_ARGUMENT = "[dropped to fit the context window]";
/** Compact when a request's estimate passes this fraction of the context window (room for the answer). */
export const COMPACT_AT = 0.8;
/** Compact down to this fraction, so the next few steps do not compact again (each rewrite costs the cache). */
export const COMPACT_TO = 0.5;
/** Argument strings shorter than this are kept: dropping them frees little and loses what the call was. */
const LONG_ARGUMENT_CHARS = 200;
/** Arguments that are not JSON and this long are replaced whole when abbreviated. */
const HUGE_RAW_ARGUMENTS = 16_000;
/** Per-message framing the provider adds (role, separators), in tokens. */
const MESSAGE_OVERHEAD = 4;

/**
 * Estimates a history's prompt tokens as characters / 4 plus a little per message. Deliberately rough
 * (no tokenizer ships for every provider); it is only used against a threshold with headroom, and a real
 * context-overflow error from the provider triggers compaction too.
 */
export function estimateTokens(messages: Message[]): number {
  return messages.reduce((sum, message) => sum + defaultTokens(message), 0);
}

function defaultTokens(message: Message): number {
  let chars = message.content.length;
  if (message.role === "assistant") {
    chars += message.reasoning?.length ?? 0;
    for (const call of message.toolCalls ?? []) {
      chars += call.id.length + call.name.length + call.arguments.length;
    }
  }
  // An image counts as what providers charge for one, not as its base64 (which is about 500 times more).
  const images = message.role === "user" || message.role === "tool" ? message.images?.length ?? 0 : 0;
  return MESSAGE_OVERHEAD + Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

/** Options of compactHistory. */
export interface CompactOptions {
  /** The model's context window in tokens. */
  contextWindow: number;
  /** The provider said the last request did not fit: our estimate ran low, so aim lower than it says. */
  afterOverflow?: boolean;
  /** Tokens of one message (default: characters / 4 plus a little); the wire's measure when known. */
  tokensOf?: (message: Message) => number;
  /** Tokens the request takes besides its messages (tool schemas, framing): the messages get the rest. */
  reserved?: number;
}

/** The compacted history and what it cost. */
export interface CompactResult {
  messages: Message[];
  tokensBefore: number;
  tokensAfter: number;
  /** Tool outputs replaced by DROPPED_OUTPUT in this pass. */
  droppedOutputs: number;
  /** Old tool calls whose long argument strings were replaced by DROPPED_ARGUMENT. */
  abbreviatedCalls: number;
  /** Whether enough was freed; when false the caller should fail with a clear error instead of retrying. */
  fits: boolean;
}

/**
 * Frees room until the estimate is at most COMPACT_TO of the window (after an overflow also at most three
 * quarters of the current estimate): first tool outputs, oldest first; then long strings in old tool-call
 * arguments. Returns a new array; unchanged messages are shared with the input.
 */
export function compactHistory(messages: Message[], options: CompactOptions): CompactResult {
  const messageTokens = options.tokensOf ?? defaultTokens;
  const tokensBefore = messages.reduce((sum, message) => sum + messageTokens(message), 0);
  let target = COMPACT_TO * options.contextWindow - (options.reserved ?? 0);
  if (options.afterOverflow) target = Math.min(target, 0.75 * tokensBefore);
  const out = [...messages];
  const open = compactable(out);
  let tokens = tokensBefore;
  let droppedOutputs = 0;
  let abbreviatedCalls = 0;
  for (const i of open) {
    if (tokens <= target) break;
    const message = out[i];
    if (message.role !== "tool" || message.content === DROPPED_OUTPUT) continue;
    const { images: _images, ...kept } = message; // a dropped output's images go with it
    const replaced = { ...kept, content: DROPPED_OUTPUT };
    tokens += messageTokens(replaced) - messageTokens(message);
    out[i] = replaced;
    droppedOutputs++;
  }
  for (const i of open) {
    if (tokens <= target) break;
    const message = out[i];
    if (message.role !== "assistant" || !message.toolCalls) continue;
    const toolCalls = message.toolCalls.map(abbreviateCall);
    if (toolCalls.every((call, k) => call === message.toolCalls![k])) continue;
    const replaced = { ...message, toolCalls };
    tokens += messageTokens(replaced) - messageTokens(message);
    out[i] = replaced;
    abbreviatedCalls++;
  }
  return {
    messages: out,
    tokensBefore,
    tokensAfter: tokens,
    droppedOutputs,
    abbreviatedCalls,
    fits: tokens <= target,
  };
}

/**
 * Indices that may be rewritten, oldest first: everything before the latest step (the last assistant
 * message and what follows it), except system messages and the last user message.
 */
function compactable(messages: Message[]): number[] {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const lastAssistant = messages.findLastIndex((message) => message.role === "assistant");
  const latestStep = lastAssistant >= 0 ? lastAssistant : messages.length;
  const out: number[] = [];
  for (let i = 0; i < latestStep; i++) {
    if (messages[i].role !== "system" && i !== lastUser) out.push(i);
  }
  return out;
}

/**
 * The call with every long string in its JSON arguments replaced; the same object when nothing changed.
 * Arguments that are not JSON stay as they are, unless they are huge: then a note of their size replaces them.
 */
export function abbreviateCall(call: ToolCall): ToolCall {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    // Not JSON: the raw text is all the model has to recognise the call by; a rewrite could not stay valid.
    if (call.arguments.length < HUGE_RAW_ARGUMENTS) return call;
    const note = `${DROPPED_ARGUMENT}: ${call.arguments.length.toLocaleString("en-US")} characters, not JSON`;
    return { ...call, arguments: JSON.stringify({ arguments: note }) };
  }
  let changed = false;
  const shorten = (value: unknown): unknown => {
    if (typeof value === "string" && value.length >= LONG_ARGUMENT_CHARS) {
      changed = true;
      return DROPPED_ARGUMENT;
    }
    if (Array.isArray(value)) return value.map(shorten);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shorten(inner)]));
    }
    return value;
  };
  const shortened = shorten(args);
  return changed ? { ...call, arguments: JSON.stringify(shortened) } : call;
}

/** Where a cut tool result's whole text is, for the note that tells the model how to read the rest. */
export interface CutOutput {
  callId: string;
  /** Characters of the result kept (its head). */
  keepChars: number;
  /** The file holding the whole result, relative to the root; absent when it could not be saved. */
  savedAs?: string;
  /** The file holds this result's text as the model saw it (so its line numbers match the cut). */
  exact?: boolean;
}

/**
 * A tool result cut to its first `keepChars` characters (at a line end when one is near), opened by a note
 * saying what was cut and how to read the rest: the saved file with read_file or grep_code, or, when it
 * could not be saved, a narrower call.
 */
export function cutOutput(content: string, cut: Omit<CutOutput, "callId">): string {
  if (content.length <= cut.keepChars) return content;
  let end = safeIndex(content, Math.max(0, cut.keepChars));
  const newline = content.lastIndexOf("\n", end - 1);
  if (newline >= end / 2) end = newline + 1;
  const head = content.slice(0, end);
  const lines = head === "" ? 0 : head.split("\n").length - (head.endsWith("\n") ? 1 : 0);
  const n = (count: number) => count.toLocaleString("en-US");
  const shown = `${n(lines)} line(s), ${n(end)} of its ${n(content.length)} characters, are shown`;
  const from = cut.exact ? ` from offset ${lines + 1}` : "";
  const read = cut.savedAs === undefined
    ? "it could not be saved: call the tool again for a smaller part (a line range, a narrower pattern)"
    : `the whole output is in ${cut.savedAs}: read it with read_file${from} (a limit in lines) or search ` +
      `it with grep_code`;
  const note = `[Output cut to fit the context window: ${shown}; ${read}.]`;
  return `${note}\n${head}${head === "" || head.endsWith("\n") ? "" : "\n"}… [${
    n(content.length - end)
  } characters cut] …`;
}
