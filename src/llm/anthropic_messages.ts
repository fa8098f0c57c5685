/**
 * The Anthropic Messages wire: the request (`POST {base}/v1/messages`, `x-api-key` + `anthropic-version`,
 * prompt-cache breakpoints) and the stream assembly (in `_anthropic_assembler.ts`). Claude and every
 * Anthropic-compatible server speak it.
 */
import { AnthropicAssembler } from "./_anthropic_assembler.ts";
import { argumentsObject, type Json, sortedByName } from "./_json.ts";
import type { ChatRequest, ImagePart, Message, ToolChoice } from "./types.ts";
import type { Wire, WireRequest } from "./wire.ts";

/** The API version tern speaks; Anthropic-compatible servers accept it too. */
export const ANTHROPIC_VERSION = "2023-06-01";

/** The output limit of every request: Messages requires `max_tokens`, and tern sets no limit of its own. */
export const DEFAULT_MAX_TOKENS = 16_384;

const CACHE = { type: "ephemeral" } as const;

/** Anthropic's server-side web search tool, as tern declares it (a few searches a turn at most). */
export const ANTHROPIC_WEB_SEARCH = { type: "web_search_20250305", name: "web_search", max_uses: 5 } as const;

/**
 * A tool call id as Messages accepts it (`[A-Za-z0-9_-]`): ids from another wire (Kimi's
 * `functions.read_file:0`) are mapped the same way on the call and on its result, so they still pair.
 */
export function toolUseId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_");
}

interface WireMessage {
  role: "user" | "assistant";
  content: Json[];
}

/**
 * The assistant content blocks for one tern message: the thinking blocks this wire recorded (verbatim,
 * signatures included; only from providerData written by this wire, never another's), the text, then the
 * tool calls as `tool_use` blocks.
 */
function assistantBlocks(message: Extract<Message, { role: "assistant" }>): Json[] {
  const blocks: Json[] = [];
  const calls = message.toolCalls ?? [];
  const data = message.providerData;
  if (calls.length > 0 && data?.api === "anthropic" && Array.isArray(data.blocks)) {
    blocks.push(...(data.blocks as Json[]));
  }
  if (message.content !== "") blocks.push({ type: "text", text: message.content });
  for (const call of calls) {
    blocks.push({
      type: "tool_use",
      id: toolUseId(call.id),
      name: call.name,
      input: argumentsObject(call.arguments),
    });
  }
  return blocks;
}

/**
 * tern's messages as Messages `system` blocks and alternating turns: system messages join the top-level
 * `system`; tool results and user text after them share one user turn (results first, as required); an
 * assistant message with nothing in it is left out (the API refuses empty content).
 */
export function toWireMessages(messages: Message[]): { system: Json[]; messages: WireMessage[] } {
  const system: Json[] = [];
  const out: WireMessage[] = [];
  const add = (role: WireMessage["role"], block: Json) => {
    const last = out.at(-1);
    if (last?.role === role) last.content.push(block);
    else out.push({ role, content: [block] });
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        system.push({ type: "text", text: message.content });
        break;
      case "user":
        // Images first: Anthropic finds them best placed before the words about them.
        for (const image of message.images ?? []) add("user", imageBlock(image));
        add("user", { type: "text", text: message.content });
        break;
      case "tool": {
        const block: Json = {
          type: "tool_result",
          tool_use_id: toolUseId(message.toolCallId),
          content: message.images?.length
            ? [{ type: "text", text: message.content }, ...message.images.map(imageBlock)]
            : message.content,
        };
        if (message.isError) block.is_error = true;
        add("user", block);
        break;
      }
      case "assistant":
        for (const block of assistantBlocks(message)) add("assistant", block);
        break;
    }
  }
  return { system, messages: out };
}

/** An image as a Messages content block (base64 source); a tool result may hold it too. */
function imageBlock(image: ImagePart): Json {
  return { type: "image", source: { type: "base64", media_type: image.mediaType, data: image.data } };
}

function toolChoiceOf(choice: ToolChoice): Json {
  if (typeof choice === "object") return { type: "tool", name: choice.name };
  return { type: choice === "required" ? "any" : choice };
}

/**
 * Builds the streaming Messages body. Cache breakpoints sit on the last tool, the system prompt and the
 * latest message's last block, so a long session reads almost all of its prompt from the cache.
 */
export function buildAnthropicBody(req: ChatRequest): Json {
  const { system, messages } = toWireMessages(req.messages);
  const body: Json = { model: req.model, max_tokens: DEFAULT_MAX_TOKENS, stream: true };
  if (system.length > 0) {
    system[system.length - 1] = { ...system[system.length - 1], cache_control: CACHE };
    body.system = system;
  }
  const last = messages.at(-1);
  if (last) {
    // Thinking blocks cannot carry a breakpoint: mark the last block that can.
    const at = last.content.findLastIndex((b) => b.type !== "thinking" && b.type !== "redacted_thinking");
    if (at >= 0) last.content[at] = { ...last.content[at], cache_control: CACHE };
  }
  body.messages = messages;
  if (req.tools.length > 0) {
    const tools: Json[] = sortedByName(req.tools).map((tool) =>
      tool.server === "web_search" ? { ...ANTHROPIC_WEB_SEARCH } : {
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters,
      }
    );
    // The breakpoint goes on the last function tool: a server tool's declaration need not carry one.
    const at = tools.findLastIndex((tool) => tool.type === undefined);
    if (at >= 0) tools[at] = { ...tools[at], cache_control: CACHE };
    body.tools = tools;
    if (req.toolChoice !== undefined) body.tool_choice = toolChoiceOf(req.toolChoice);
  }
  return body;
}

/** Builds the Messages request: path, `x-api-key` when a key is given, the version header, the body. */
export function buildAnthropicRequest(request: ChatRequest, auth: { apiKey?: string }): WireRequest {
  const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
  if (auth.apiKey) headers["x-api-key"] = auth.apiKey;
  return { path: "/v1/messages", headers, body: buildAnthropicBody(request) };
}

/** The Anthropic Messages wire, for `WireClient` and `createClient`. */
export const anthropicMessagesWire: Wire = {
  api: "anthropic",
  buildRequest: buildAnthropicRequest,
  createAssembler: (source) => new AnthropicAssembler({ source }),
};
