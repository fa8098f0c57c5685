/**
 * Anthropic Messages side of the fake model server: scripted turns → real Messages SSE events (named), and
 * the history checks a strict server makes (tool_use/tool_result pairing, thinking blocks returned with their
 * signatures on the turn that carried tool calls).
 */
import { fragments, type ScriptedTurn } from "./_fake_model_wire.ts";
import { checkAnthropicImage, checkAnthropicResultContent } from "./_fake_images.ts";

type Json = Record<string, unknown>;

/** What the server handed out, so later requests can be checked against it. */
export interface AnthropicIssued {
  /** Thinking block by tool_use id, for turns whose tool calls came with thinking. */
  thinkingByTool: Map<string, { thinking: string; signature: string }>;
  /** Every signature handed out, with the thinking it signs. */
  signatures: Map<string, string>;
}

/** A fresh record of nothing issued. */
export function anthropicIssued(): AnthropicIssued {
  return { thinkingByTool: new Map(), signatures: new Map() };
}

const STOP_WORDS: Record<string, string> = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens" };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The named SSE frames of one scripted turn; records the thinking it signs in `issued`. */
export function anthropicFrames(
  turn: ScriptedTurn,
  context: { model: string; turnIndex: number },
  issued: AnthropicIssued,
): string[] {
  const size = turn.chunkSize ?? 4;
  const events: Json[] = [{
    type: "message_start",
    message: {
      id: `msg_fake_${context.turnIndex}`,
      type: "message",
      role: "assistant",
      model: context.model,
      content: [],
      stop_reason: null,
      usage: { input_tokens: turn.usage?.prompt_tokens ?? 100, output_tokens: 1 },
    },
  }, { type: "ping" }];
  let index = 0;
  const signature = `sig-${context.turnIndex}-${(turn.reasoning ?? "").length}`;
  if (turn.reasoning) {
    events.push({
      type: "content_block_start",
      index,
      content_block: { type: "thinking", thinking: "", signature: "" },
    });
    for (const piece of fragments(turn.reasoning, size)) {
      events.push({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } });
    }
    events.push({ type: "content_block_delta", index, delta: { type: "signature_delta", signature } });
    events.push({ type: "content_block_stop", index: index++ });
    issued.signatures.set(signature, turn.reasoning);
  }
  if (turn.text) {
    events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of fragments(turn.text, size)) {
      events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    }
    events.push({ type: "content_block_stop", index: index++ });
  }
  (turn.toolCalls ?? []).forEach((call, n) => {
    const id = call.id || `toolu_fake_${context.turnIndex}_${n}`;
    if (turn.reasoning) issued.thinkingByTool.set(id, { thinking: turn.reasoning, signature });
    events.push({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id, name: call.name, input: {} },
    });
    for (const piece of fragments(call.arguments, size)) {
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      });
    }
    events.push({ type: "content_block_stop", index: index++ });
  });
  if (turn.streamError) {
    const { message, type } = turn.streamError;
    events.push({ type: "error", error: { type: type ?? "overloaded_error", message } });
    return events.map(namedFrame);
  }
  const word = turn.finishReason === undefined
    ? (turn.toolCalls?.length ? "tool_use" : "end_turn")
    : turn.finishReason === null
    ? null
    : STOP_WORDS[turn.finishReason] ?? turn.finishReason;
  const output = turn.usage?.completion_tokens ?? 10;
  events.push({
    type: "message_delta",
    delta: { stop_reason: word, stop_sequence: null },
    usage: { output_tokens: output },
  });
  if (!turn.omitDone) events.push({ type: "message_stop" });
  return events.map(namedFrame);
}

function namedFrame(event: Json): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Checks a Messages request as Anthropic would: the version header, `max_tokens`, alternating roles starting
 * with the user, every tool_use answered by exactly one tool_result (first in the next user turn), and the
 * thinking of a turn that carried tool calls sent back unchanged with its signature. Returns the problem in
 * words, or undefined.
 */
export function checkAnthropicRequest(
  body: Json,
  headers: Headers,
  issued: AnthropicIssued,
): string | undefined {
  if (!headers.get("anthropic-version")) return "the anthropic-version header is missing";
  if (typeof body.model !== "string" || body.model === "") return "model must be a non-empty string";
  if (body.stream !== true) return "stream must be true (this fake only streams)";
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    return "max_tokens must be a positive integer";
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return "messages must be a non-empty array";
  }
  let open = new Set<string>();
  for (const [i, raw] of body.messages.entries()) {
    const message: Json = isObject(raw) ? raw : {};
    const expected = i % 2 === 0 ? "user" : "assistant";
    if (message.role !== expected) {
      return `messages[${i}]: expected role ${expected}, got ${JSON.stringify(message.role)}`;
    }
    if (!Array.isArray(message.content) || message.content.length === 0) {
      return `messages[${i}]: content must be a non-empty array of blocks`;
    }
    const blocks = message.content.map((b) => (isObject(b) ? b : {}));
    const problem = message.role === "user"
      ? checkUserBlocks(blocks, open, i)
      : checkAssistantBlocks(blocks, issued, i);
    if (typeof problem === "string") return problem;
    open = message.role === "assistant" ? problem as Set<string> : new Set();
  }
  if (open.size > 0) return `tool_use ${[...open].join(", ")} has no tool_result at the end of messages`;
  return undefined;
}

function checkUserBlocks(blocks: Json[], open: Set<string>, i: number): string | Set<string> {
  let seenOther = false;
  for (const block of blocks) {
    if (block.type !== "tool_result") {
      seenOther = true;
      const problem = block.type === "image" ? checkAnthropicImage(block, `messages[${i}]`) : undefined;
      if (problem) return problem;
      continue;
    }
    const id = String(block.tool_use_id);
    const content = checkAnthropicResultContent(block, `messages[${i}]`);
    if (content) return content;
    if (seenOther) return `messages[${i}]: tool_result ${id} comes after other content (results go first)`;
    if (!open.delete(id)) return `messages[${i}]: tool_result for ${JSON.stringify(id)} answers no tool_use`;
    if (block.is_error !== undefined && typeof block.is_error !== "boolean") {
      return `messages[${i}]: is_error must be a boolean`;
    }
  }
  if (open.size > 0) return `messages[${i}]: tool_use ${[...open].join(", ")} has no tool_result`;
  return new Set();
}

function checkAssistantBlocks(blocks: Json[], issued: AnthropicIssued, i: number): string | Set<string> {
  const ids = new Set<string>();
  const thinking: Json[] = [];
  let seenOther = false;
  for (const block of blocks) {
    if (block.type === "thinking") {
      if (seenOther) return `messages[${i}]: a thinking block must come before text and tool_use`;
      if (issued.signatures.get(String(block.signature)) !== block.thinking) {
        return `messages[${i}]: thinking block with an unknown or altered signature`;
      }
      thinking.push(block);
      continue;
    }
    seenOther = true;
    if (block.type === "text" && (typeof block.text !== "string" || block.text === "")) {
      return `messages[${i}]: text blocks must not be empty`;
    }
    if (block.type === "tool_use") {
      if (typeof block.id !== "string" || !isObject(block.input)) {
        return `messages[${i}]: tool_use needs an id and an object input`;
      }
      ids.add(block.id);
    }
  }
  for (const id of ids) {
    const signed = issued.thinkingByTool.get(id);
    if (signed && !thinking.some((b) => b.signature === signed.signature)) {
      return `messages[${i}]: the turn with tool_use ${id} must send back its thinking block with signature ${signed.signature}`;
    }
  }
  return ids;
}
