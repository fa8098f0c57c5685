/**
 * The OpenAI-compatible chat-completions wire: the request body (`POST /chat/completions`, bearer auth)
 * and the stream assembly (in `_chat_assembler.ts`). DeepSeek, Kimi, GLM, Qwen, OpenRouter, Ollama and
 * llama.cpp all speak it.
 */
import { ChatAssembler } from "./_chat_assembler.ts";
import { type Json, jsonParts, sortedByName } from "./_json.ts";
import { shortIdsMemo, WireMessages } from "./_chat_memo.ts";
import { type CaptionedImage, dataUrl, withResultImages } from "./_images.ts";
import type { ChatRequest, ImagePart, Message } from "./types.ts";
import type { Wire, WireRequest } from "./wire.ts";

/**
 * Whether tool-call messages carry `reasoning_content` back: "always" (for a server known to want it from
 * the first step), "never" (Groq, Mistral and Gemini reject the unknown field), or "auto" (on every
 * tool-call message once the conversation holds any reasoning: DeepSeek's and Kimi's thinking modes get it
 * back, a server that never reasons never sees the field).
 */
export type ReasoningEcho = "always" | "auto" | "never";

/** Maps one tern message to its chat-completions wire form; `echo` says whether reasoning goes back. */
export function toWireMessage(message: Message, echo: boolean = true): Json {
  switch (message.role) {
    case "system":
      return { role: message.role, content: message.content };
    case "user":
      if (!message.images?.length) return { role: "user", content: message.content };
      return {
        role: "user",
        content: [{ type: "text", text: message.content }, ...message.images.map(imagePart)],
      };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant": {
      if (!message.toolCalls || message.toolCalls.length === 0) {
        return { role: "assistant", content: message.content };
      }
      // Content may be left out beside tool calls (the API's own rule); an empty string would cost every
      // later request its bytes.
      return {
        role: "assistant",
        ...(message.content !== "" ? { content: message.content } : {}),
        // A step without reasoning sends one space: Moonshot's K2.5/K2.6 read "" as missing (HTTP 400);
        // DeepSeek takes either.
        ...(echo ? { reasoning_content: message.reasoning || " " } : {}),
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

/** An image as a chat-completions content part: `image_url` with a data URL. */
function imagePart(image: ImagePart): Json {
  return { type: "image_url", image_url: { url: dataUrl(image) } };
}

/** The user message after tool results that holds their images (a tool message's content is text only). */
function resultImages(images: CaptionedImage[]): Json {
  const content = images.flatMap(({ caption, image }) => [{ type: "text", text: caption }, imagePart(image)]);
  return { role: "user", content };
}

/** Whether a request's tool-call messages carry `reasoning_content` under `echo`. */
export function sendsReasoning(messages: readonly Message[], echo: ReasoningEcho): boolean {
  return echo === "always" ||
    (echo === "auto" && messages.some((message) => message.role === "assistant" && !!message.reasoning));
}

/**
 * The messages with each opaque tool-call id replaced by a short one (`c1`, `c2`, … in order of first
 * appearance), the same in the call and in its result. Every later request repeats every id twice, so a
 * 29-character id costs about 10 KB over 20 tool steps. The numbering depends only on the messages before,
 * so it stays the same from request to request (the prompt prefix still caches); the conversation itself
 * keeps the provider's ids.
 */
export function withShortIds(messages: readonly Message[]): Message[] {
  return shortIdsMemo()(messages);
}

/** What a wire keeps between its requests (see `_chat_memo.ts`); a fresh one remembers nothing. */
export interface ChatMemo {
  shortIds: (messages: readonly Message[]) => Message[];
  messages: WireMessages;
}

function freshMemo(): ChatMemo {
  return { shortIds: shortIdsMemo(), messages: new WireMessages() };
}

/** Builds the streaming chat-completions JSON body; tools are sorted by name so the prompt prefix caches. */
export function buildRequestBody(
  req: ChatRequest,
  echo: ReasoningEcho = "auto",
  memo: ChatMemo = freshMemo(),
): Json {
  const sendReasoning = sendsReasoning(req.messages, echo);
  const body: Json = {
    model: req.model,
    messages: withResultImages(
      memo.shortIds(req.messages),
      (message) => memo.messages.form(message, sendReasoning, (m) => toWireMessage(m, sendReasoning)),
      resultImages,
    ),
    stream: true,
    stream_options: { include_usage: true },
  };
  // A tool the provider runs (ToolSpec.server) has no Chat Completions form: it is left out here.
  const tools = req.tools.filter((tool) => tool.server === undefined);
  if (tools.length > 0) {
    body.tools = sortedByName(tools).map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (tools.length > 0 && req.toolChoice !== undefined) {
    const choice = req.toolChoice;
    body.tool_choice = typeof choice === "object"
      ? { type: "function", function: { name: choice.name } }
      : choice;
  }
  return body;
}

/** Builds the chat-completions request: path, bearer auth when a key is given, and the JSON body. */
export function buildChatRequest(
  request: ChatRequest,
  auth: { apiKey?: string },
  echo: ReasoningEcho = "auto",
  memo?: ChatMemo,
): WireRequest {
  const headers: Record<string, string> = {};
  if (auth.apiKey) headers.authorization = `Bearer ${auth.apiKey}`;
  return { path: "/chat/completions", headers, body: buildRequestBody(request, echo, memo) };
}

/**
 * The chat-completions wire for a provider's reasoning rule (default "auto", for servers tern does not
 * know). Under "auto" the server settles the rule: an HTTP 400 that names `reasoning_content` means it wants
 * the field on every tool-call message (the request lacked it: "always") or rejects the field (the request
 * carried it: "never"); the wire keeps that rule from then on and the request goes once more.
 */
export function chatWire(echo: ReasoningEcho = "auto"): Wire {
  let rule = echo;
  let lastSent = false;
  const memo = freshMemo();
  return {
    api: "chat",
    buildRequest: (request, auth) => {
      lastSent = sendsReasoning(request.messages, rule);
      // The rule settled for this request, so the body does not look through the messages again.
      const built = buildChatRequest(request, auth, lastSent ? "always" : "never", memo);
      const body = built.body as Json;
      const items = (body.messages as Json[]).map((message) => memo.messages.bytes(message));
      // One piece for the whole list, its first comma skipped as jsonParts does for any first item.
      return { ...built, parts: jsonParts(body, "messages", [memo.messages.joined(items)]) };
    },
    createAssembler: (source) => new ChatAssembler({ source }),
    recover: (error) => {
      if (rule !== "auto" || error.status !== 400 || !error.message.includes("reasoning_content")) {
        return false;
      }
      rule = lastSent ? "never" : "always";
      return true;
    },
  };
}
