/**
 * The OpenAI Responses wire: the request (`POST {base}/responses` with `input` items, `store: false`,
 * encrypted reasoning included) and the stream assembly (in `_responses_assembler.ts`). OpenAI's reasoning
 * models, xAI, and local servers (LM Studio, vLLM) speak it.
 */
import { ResponsesAssembler } from "./_responses_assembler.ts";
import { isObject, type Json, sortedByName } from "./_json.ts";
import type { ChatRequest, Message, ToolChoice } from "./types.ts";
import type { Wire, WireRequest } from "./wire.ts";

/**
 * The reasoning items this wire recorded for an assistant message (only from providerData written by this
 * wire; another wire's is dropped), as received minus `id` and `status`: with `store: false` the server
 * keeps nothing, so an echoed id is refused ("Item with id 'rs_…' not found"); the encrypted content is
 * what carries the reasoning over.
 */
function reasoningItems(message: Extract<Message, { role: "assistant" }>): Json[] {
  const data = message.providerData;
  if (data?.api !== "responses" || !Array.isArray(data.reasoning)) return [];
  return data.reasoning.filter(isObject).map(({ id: _id, status: _status, ...item }) => item);
}

/**
 * tern's messages as Responses input items, in order: messages by role; an assistant turn as its reasoning
 * items, its text, then one `function_call` per tool call; a tool result as `function_call_output` paired by
 * `call_id`.
 */
export function toInputItems(messages: Message[]): Json[] {
  const items: Json[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
      case "user":
        items.push({ type: "message", role: message.role, content: message.content });
        break;
      case "tool":
        items.push({ type: "function_call_output", call_id: message.toolCallId, output: message.content });
        break;
      case "assistant": {
        const calls = message.toolCalls ?? [];
        if (calls.length > 0) items.push(...reasoningItems(message));
        if (message.content !== "") {
          items.push({ type: "message", role: "assistant", content: message.content });
        }
        for (const call of calls) {
          items.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.arguments });
        }
        break;
      }
    }
  }
  return items;
}

function toolChoiceOf(choice: ToolChoice): unknown {
  return typeof choice === "object" ? { type: "function", name: choice.name } : choice;
}

/** Builds the streaming Responses body; stateless (`store: false`), so reasoning comes back encrypted. */
export function buildResponsesBody(req: ChatRequest): Json {
  const body: Json = {
    model: req.model,
    input: toInputItems(req.messages),
    stream: true,
    store: false,
    include: ["reasoning.encrypted_content"],
  };
  if (req.tools.length > 0) {
    body.tools = sortedByName(req.tools).map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
    if (req.toolChoice !== undefined) body.tool_choice = toolChoiceOf(req.toolChoice);
  }
  return body;
}

/** Builds the Responses request: path, bearer auth when a key is given, and the JSON body. */
export function buildResponsesRequest(request: ChatRequest, auth: { apiKey?: string }): WireRequest {
  const headers: Record<string, string> = {};
  if (auth.apiKey) headers.authorization = `Bearer ${auth.apiKey}`;
  return { path: "/responses", headers, body: buildResponsesBody(request) };
}

/** The OpenAI Responses wire, for `WireClient` and `createClient`. */
export const openaiResponsesWire: Wire = {
  api: "responses",
  buildRequest: buildResponsesRequest,
  createAssembler: (source) => new ResponsesAssembler({ source }),
};
