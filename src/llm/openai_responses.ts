/**
 * The OpenAI Responses wire: the request (`POST {base}/responses` with `input` items, `store: false`,
 * encrypted reasoning included) and the stream assembly (in `_responses_assembler.ts`). OpenAI's reasoning
 * models, xAI, and local servers (LM Studio, vLLM) speak it.
 */
import { ResponsesAssembler } from "./_responses_assembler.ts";
import { isObject, type Json, sortedByName } from "./_json.ts";
import { type CaptionedImage, dataUrl, withResultImages } from "./_images.ts";
import type { ChatRequest, ImagePart, Message, ToolChoice } from "./types.ts";
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

/** An image as a Responses content part: `input_image` with a data URL. */
function imagePart(image: ImagePart): Json {
  return { type: "input_image", image_url: dataUrl(image) };
}

/** The user message after function_call_outputs that holds their images (an output is sent as text). */
function resultImages(images: CaptionedImage[]): Json[] {
  const content = images.flatMap((
    { caption, image },
  ) => [{ type: "input_text", text: caption }, imagePart(image)]);
  return [{ type: "message", role: "user", content }];
}

/**
 * tern's messages as Responses input items, in order: messages by role; an assistant turn as its reasoning
 * items, its text, then one `function_call` per tool call; a tool result as `function_call_output` paired by
 * `call_id` (its images in a user message after the run of outputs).
 */
export function toInputItems(messages: Message[]): Json[] {
  return withResultImages(messages, messageItems, resultImages).flat();
}

/** The input items of one message. */
function messageItems(message: Message): Json[] {
  switch (message.role) {
    case "system":
      return [{ type: "message", role: "system", content: message.content }];
    case "user": {
      const content = message.images?.length
        ? [{ type: "input_text", text: message.content }, ...message.images.map(imagePart)]
        : message.content;
      return [{ type: "message", role: "user", content }];
    }
    case "tool":
      return [{ type: "function_call_output", call_id: message.toolCallId, output: message.content }];
    case "assistant": {
      const calls = message.toolCalls ?? [];
      const items: Json[] = calls.length > 0 ? reasoningItems(message) : [];
      if (message.content !== "") {
        items.push({ type: "message", role: "assistant", content: message.content });
      }
      for (const call of calls) {
        items.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.arguments });
      }
      return items;
    }
  }
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
    body.tools = sortedByName(req.tools).map((tool) =>
      tool.server === "web_search" ? { type: "web_search" } : ({
        type: "function",
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: false,
      })
    );
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
