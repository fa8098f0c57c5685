/**
 * The contract between the transport (HTTP, timeouts, SSE, HTTP errors) and one wire format (chat
 * completions today; Anthropic Messages and OpenAI Responses later, as sibling modules).
 */
import type { SseEvent } from "./sse.ts";
import {
  type AssistantTurn,
  type ChatRequest,
  type FinishReason,
  LlmError,
  type StreamEvent,
  type WireApi,
} from "./types.ts";

/** What a wire module wants POSTed: a path under the base URL, its own headers (auth), and the JSON body. */
export interface WireRequest {
  /** Appended to the base URL, e.g. `/chat/completions`. */
  path: string;
  /** The wire's headers, auth included (`authorization: Bearer …`, `x-api-key`, version headers). */
  headers: Record<string, string>;
  /** Sent as JSON. */
  body: unknown;
  /**
   * The UTF-8 of `JSON.stringify(body)` in pieces, when the wire has it from bytes it kept; else the sender
   * serialises `body` itself.
   */
  parts?: readonly Uint8Array[];
}

/**
 * Folds the SSE events of one response into StreamEvents and, at the end, one AssistantTurn. Pure: no
 * I/O, so it is tested with plain data. Throws LlmError (stream_error, bad_response, interrupted).
 */
export interface WireAssembler {
  /** Consumes one event; returns the deltas it carried, in order. */
  push(event: SseEvent): StreamEvent[];
  /** True once the wire's end marker arrived (e.g. `[DONE]`): the transport stops reading. */
  readonly ended: boolean;
  /** True once enough arrived to make a whole turn: a drop after this loses nothing but trailing usage. */
  readonly complete: boolean;
  /** True once a text or reasoning delta was emitted (a failure now loses visible output). */
  readonly hasOutput: boolean;
  /** The complete turn; throws LlmError("interrupted") when the stream never said it was complete. */
  finish(): AssistantTurn;
}

/** One wire format: how to build its request and how to read its stream. */
export interface Wire {
  readonly api: WireApi;
  /** Maps tern's request to the wire's; `apiKey` (absent for keyless servers) goes into its auth header. */
  buildRequest(request: ChatRequest, auth: { apiKey?: string }): WireRequest;
  /** A fresh assembler for one response; `source` (the base URL) names the server in error messages. */
  createAssembler(source: string): WireAssembler;
  /**
   * Called when the server rejected the last request (an HTTP error): true when the wire changed how it
   * builds requests because of what the server said, so the transport sends the request once more.
   */
  recover?(error: LlmError): boolean;
}

const FINISH_WORDS: Record<string, FinishReason> = {
  stop: "stop",
  end_turn: "stop",
  stop_sequence: "stop",
  eos: "stop",
  completed: "stop",
  tool_calls: "tool_calls",
  tool_call: "tool_calls",
  function_call: "tool_calls",
  tool_use: "tool_calls",
  length: "length",
  max_tokens: "length",
  max_output_tokens: "length",
  model_length: "length",
  model_context_window_exceeded: "length",
  content_filter: "content_filter",
  sensitive: "content_filter",
  refusal: "content_filter",
  safety: "content_filter",
  error: "error",
};

/**
 * A provider's finish word in tern's words. Unknown or missing words fall back on what arrived: tool
 * calls mean "tool_calls", anything else "stop" (the stream itself said it was complete).
 */
export function toFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  const known = raw === undefined ? undefined : FINISH_WORDS[raw.trim().toLowerCase()];
  return known ?? (hasToolCalls ? "tool_calls" : "stop");
}

/** An event's data as JSON; a `bad_response` LlmError naming `source` when it is not JSON. */
export function parseEventData(data: string, source: string, partialOutput: boolean): unknown {
  try {
    return JSON.parse(data);
  } catch {
    const shown = data.length <= 120 ? data : `${data.slice(0, 119)}…`;
    const message = `${source} sent a stream event that is not JSON: ${shown}`;
    throw new LlmError("bad_response", message, { partialOutput });
  }
}
