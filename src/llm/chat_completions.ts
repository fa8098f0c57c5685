/**
 * The OpenAI-compatible chat-completions wire: the request body (`POST /chat/completions`, bearer auth)
 * and the stream assembly (in `_chat_assembler.ts`). DeepSeek, Kimi, GLM, Qwen, OpenRouter, Ollama and
 * llama.cpp all speak it.
 */
import { ChatAssembler } from "./_chat_assembler.ts";
import { type TransportOptions, WireClient } from "./transport.ts";
import type { ChatRequest, Message } from "./types.ts";
import type { Wire, WireRequest } from "./wire.ts";

/**
 * Whether tool-call messages carry `reasoning_content` back: "always" (DeepSeek and Kimi reject a tool-call
 * message without it, even an empty one) or "never" (Groq, Mistral and Gemini reject the unknown field).
 */
export type ReasoningEcho = "always" | "never";

/** Maps one tern message to its chat-completions wire form. */
export function toWireMessage(message: Message, echo: ReasoningEcho = "always"): Record<string, unknown> {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant": {
      if (!message.toolCalls || message.toolCalls.length === 0) {
        return { role: "assistant", content: message.content };
      }
      return {
        role: "assistant",
        content: message.content,
        ...(echo === "always" ? { reasoning_content: message.reasoning ?? "" } : {}),
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

/** Builds the streaming chat-completions JSON body; tools are sorted by name so the prompt prefix caches. */
export function buildRequestBody(req: ChatRequest, echo: ReasoningEcho = "always"): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: req.model,
    messages: req.messages.map((message) => toWireMessage(message, echo)),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (req.tools.length > 0) {
    body.tools = [...req.tools]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((tool) => ({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }));
  }
  if (req.tools.length > 0 && req.toolChoice !== undefined) {
    const choice = req.toolChoice;
    body.tool_choice = typeof choice === "object"
      ? { type: "function", function: { name: choice.name } }
      : choice;
  }
  if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  return body;
}

/** Builds the chat-completions request: path, bearer auth when a key is given, and the JSON body. */
export function buildChatRequest(
  request: ChatRequest,
  auth: { apiKey?: string },
  echo: ReasoningEcho = "always",
): WireRequest {
  const headers: Record<string, string> = {};
  if (auth.apiKey) headers.authorization = `Bearer ${auth.apiKey}`;
  return { path: "/chat/completions", headers, body: buildRequestBody(request, echo) };
}

/** The chat-completions wire for a provider's reasoning rule (default: send it back always). */
export function chatWire(echo: ReasoningEcho = "always"): Wire {
  return {
    api: "chat",
    buildRequest: (request, auth) => buildChatRequest(request, auth, echo),
    createAssembler: (source) => new ChatAssembler({ source }),
  };
}

/** The chat-completions wire, for `WireClient` and `createClient`. */
export const chatCompletionsWire: Wire = chatWire();

/** A chat-completions client over the shared transport; `createClient` builds the same from a config. */
export class ChatCompletionsClient extends WireClient {
  constructor(options: TransportOptions) {
    super(chatCompletionsWire, options);
  }
}
