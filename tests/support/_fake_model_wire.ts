/** Wire format of the fake model server: scripted turns → DeepSeek-shaped chunks, and Codex-style request checks. */

/** One tool call the fake model makes. `id` omitted: the server makes one up; `id: ""`: no id is sent. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: string;
}

/** One scripted model response, with knobs to inject faults. */
export interface ScriptedTurn {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default "tool_calls" when toolCalls else "stop"; null omits the key (then only [DONE] ends the turn). */
  finishReason?: string | null;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens?: number };
  /** Respond with this HTTP status (plus Retry-After and body) instead of a stream. */
  status?: number;
  retryAfter?: string;
  errorBody?: string;
  /** Close the stream after N data chunks, the role chunk included (no [DONE], no finish_reason). */
  cutAfterChunks?: number;
  /** Don't send `data: [DONE]`. */
  omitDone?: boolean;
  /** Send an in-stream error object after the content chunks, then end the stream. */
  streamError?: { message: string; type?: string; code?: string | number };
  /** Wait before the first byte (the response headers included). */
  delayMs?: number;
  /** Wait between chunks. */
  chunkDelayMs?: number;
  /** Split text, reasoning and arguments into fragments of this many characters (default 4). */
  chunkSize?: number;
}

import { checkChatContent } from "./_fake_images.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Splits text into pieces of `size` characters (code points, so no surrogate pair is cut). */
export function fragments(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += Math.max(1, size)) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** The JSON payloads of one scripted turn, in stream order (without [DONE]). */
export function turnPayloads(turn: ScriptedTurn, context: { model: string; turnIndex: number }): unknown[] {
  const size = turn.chunkSize ?? 4;
  const base = { id: `chatcmpl-fake-${context.turnIndex}`, object: "chat.completion.chunk", created: 1 };
  const chunk = (delta: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    model: context.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }],
  });
  const out: unknown[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of fragments(turn.reasoning ?? "", size)) out.push(chunk({ reasoning_content: piece }));
  for (const piece of fragments(turn.text ?? "", size)) out.push(chunk({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    const id = call.id ?? `call_${context.turnIndex}_${index}`;
    const [first = "", ...rest] = fragments(call.arguments, size);
    const head: Record<string, unknown> = {
      index,
      type: "function",
      function: { name: call.name, arguments: first },
    };
    if (id !== "") head.id = id;
    out.push(chunk({ tool_calls: [head] }));
    for (const piece of rest) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  if (turn.streamError) return [...out, { error: { type: "server_error", ...turn.streamError } }];
  const reason = turn.finishReason === undefined
    ? (turn.toolCalls?.length ? "tool_calls" : "stop")
    : turn.finishReason;
  if (reason === null) out.push({ ...base, model: context.model, choices: [{ index: 0, delta: {} }] });
  else out.push(chunk({}, { finish_reason: reason }));
  out.push({ ...base, model: context.model, choices: [], usage: usageOf(turn) });
  return out;
}

function usageOf(turn: ScriptedTurn): Record<string, number> {
  if (turn.usage) {
    const { prompt_tokens, completion_tokens } = turn.usage;
    return {
      prompt_tokens,
      completion_tokens,
      total_tokens: turn.usage.total_tokens ?? prompt_tokens + completion_tokens,
    };
  }
  // A plausible default so budget code always sees usage: about four characters a token.
  const produced = (turn.text ?? "") + (turn.reasoning ?? "") +
    (turn.toolCalls ?? []).map((c) => c.arguments).join("");
  const completion = Math.ceil(produced.length / 4) + 1;
  return { prompt_tokens: 100, completion_tokens: completion, total_tokens: 100 + completion };
}

/**
 * How the chat fake treats `reasoning_content` on tool-call messages: "thinking" (DeepSeek: required once
 * the fake has handed out reasoning), "required" (Kimi in thinking mode: always, even after an empty
 * reasoning, and "" counts as missing), "rejected" (Groq: the field is refused).
 */
export type ReasoningRule = "thinking" | "required" | "rejected";

/** What the chat fake handed out (the reasoning of each tool call it issued, by call id) and its rule. */
export interface ChatIssued {
  reasoning: Map<string, string>;
  rule: ReasoningRule;
}

/** An empty record of what the chat fake handed out. */
export function chatIssued(rule: ReasoningRule = "thinking"): ChatIssued {
  return { reasoning: new Map(), rule };
}

/** Records the reasoning behind each tool call of a served turn. */
export function recordChatTurn(issued: ChatIssued, turn: ScriptedTurn, turnIndex: number): void {
  (turn.toolCalls ?? []).forEach((call, index) => {
    issued.reasoning.set(call.id ?? `call_${turnIndex}_${index}`, turn.reasoning ?? "");
  });
}

/**
 * Checks a request body the way a strict provider would: every assistant tool call id answered by exactly
 * one tool message before the next assistant/user/system message. In thinking mode, as DeepSeek and Kimi
 * run it (the fake thinks once it has handed out any reasoning; without a record, always), every assistant
 * message with tool calls must carry `reasoning_content`, and the reasoning handed out with a call must come
 * back verbatim. Returns the problem in words, or undefined when the request is fine.
 */
export function checkRequest(body: Record<string, unknown>, issued?: ChatIssued): string | undefined {
  if (typeof body.model !== "string" || body.model === "") return "model must be a non-empty string";
  if (body.stream !== true) return "stream must be true (this fake only streams)";
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return "messages must be a non-empty array";
  }
  let pending = new Set<string>();
  for (const [i, raw] of body.messages.entries()) {
    const message: Json = isObject(raw) ? raw : {};
    const role = message.role;
    if (role === "tool") {
      const id = String(message.tool_call_id);
      if (!pending.delete(id)) {
        return `messages[${i}]: tool result for ${JSON.stringify(id)} answers no open call`;
      }
      if (typeof message.content !== "string") return `messages[${i}]: tool content must be a string`;
      continue;
    }
    if (role !== "system" && role !== "user" && role !== "assistant") {
      return `messages[${i}]: unknown role ${JSON.stringify(role)}`;
    }
    if (pending.size > 0) {
      return `messages[${i}] (${role}): tool call(s) ${[...pending].join(", ")} have no result`;
    }
    const content = checkChatContent(message, `messages[${i}]`);
    if (content) return content;
    if (role === "assistant" && message.tool_calls !== undefined) {
      const problem = checkToolCalls(message, i, issued);
      if (typeof problem === "string") return problem;
      pending = problem;
    }
  }
  if (pending.size > 0) {
    return `tool call(s) ${[...pending].join(", ")} have no result at the end of messages`;
  }
  return undefined;
}

function checkToolCalls(message: Json, i: number, issued?: ChatIssued): string | Set<string> {
  const calls = message.tool_calls;
  if (!Array.isArray(calls) || calls.length === 0) {
    return `messages[${i}]: tool_calls must be a non-empty array`;
  }
  if (issued?.rule === "rejected" && "reasoning_content" in message) {
    return `'messages.${i}' : property 'reasoning_content' is unsupported`;
  }
  const thinking = issued === undefined || issued.rule === "required" ||
    (issued.rule === "thinking" && [...issued.reasoning.values()].some((text) => text !== ""));
  // Moonshot reads "" as missing; DeepSeek takes it. The strict "required" rule plays Moonshot.
  const missing = typeof message.reasoning_content !== "string" ||
    (issued?.rule === "required" && message.reasoning_content === "");
  if (thinking && missing) {
    return `messages[${i}]: assistant message with tool_calls lacks reasoning_content (DeepSeek/Kimi reject it)`;
  }
  for (const raw of calls) {
    const handedOut = issued?.reasoning.get(String(isObject(raw) ? raw.id : ""));
    if (handedOut && message.reasoning_content !== handedOut) {
      return `messages[${i}]: reasoning_content differs from the reasoning handed out with its tool call`;
    }
  }
  const ids = new Set<string>();
  for (const raw of calls) {
    const call: Json = isObject(raw) ? raw : {};
    const fn: Json = isObject(call.function) ? call.function : {};
    if (typeof call.id !== "string" || call.id === "") return `messages[${i}]: a tool call has no id`;
    if (ids.has(call.id)) return `messages[${i}]: tool call id ${call.id} is used twice`;
    if (call.type !== "function" || typeof fn.name !== "string" || typeof fn.arguments !== "string") {
      return `messages[${i}]: tool call ${call.id} must be {type:"function", function:{name, arguments: string}}`;
    }
    ids.add(call.id);
  }
  return ids;
}
