/** Provider-neutral types shared by the LLM client, the agent loop and the tools. */

/** One tool call as the model asked for it; `arguments` is the raw JSON text, exactly as streamed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Token usage of one model call (or a sum of calls). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Prompt tokens served from the provider's cache, when reported. */
  cachedTokens?: number;
  /** Prompt tokens written to the provider's cache on this call (Anthropic, some Responses servers). */
  cacheWriteTokens?: number;
  /** Completion tokens spent on reasoning, when reported. */
  reasoningTokens?: number;
}

/**
 * Why the model stopped, in tern's words; each wire module maps its provider's words onto these (see
 * `toFinishReason` in wire.ts). "length" means the answer was cut: it is never presented as complete.
 */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "error";

/** Which wire format a provider speaks: OpenAI chat completions, OpenAI Responses, Anthropic Messages. */
export type WireApi = "chat" | "responses" | "anthropic";

/**
 * What one wire format needs back on the next request and tern never reads: reasoning signatures,
 * encrypted reasoning, item ids. Opaque outside the wire module named by `api`, which alone writes and
 * reads the other fields; a message sent to a different wire drops it. Chat completions leaves it unset.
 */
export interface ProviderData {
  api: WireApi;
  [key: string]: unknown;
}

/** One complete model response, assembled from a stream that ended properly. */
export interface AssistantTurn {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** The provider's own finish word, kept for logs only when it differs from `finishReason`. */
  rawFinishReason?: string;
  usage?: Usage;
  /** Model name the provider reported, when it did. */
  model?: string;
  /** Per-provider state to copy onto the assistant message so it round-trips (see ProviderData). */
  providerData?: ProviderData;
}

/** The image formats every wire and every image-reading model takes. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/**
 * An image for the model (a `@shot.png` in the prompt, or a read_file of an image): base64 bytes, at most
 * 5 MB before encoding. Each wire sends it in its own form (image_url data URL, input_image, an Anthropic
 * image block); a client for a model that reads text only sends a one-line note instead. Counting it:
 * `IMAGE_TOKENS` per image, never its base64 length (which is no measure of what a provider charges).
 */
export interface ImagePart {
  mediaType: ImageMediaType;
  /** The file's bytes, base64. */
  data: string;
  /** Where it came from, relative to the project root, for captions and notes. */
  name: string;
}

/** What one image is counted as in estimates: about what providers charge for a screenshot-sized image. */
export const IMAGE_TOKENS = 1_600;

/**
 * A conversation message in tern's own shape; the client maps it to the wire format. `images` (on user and
 * tool messages only) is absent in a text-only conversation, so its requests do not change.
 */
export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string; images?: ImagePart[] }
  | {
    role: "assistant";
    content: string;
    /** Kept only on messages that carried tool calls (DeepSeek/Kimi require it back, even ""). */
    reasoning?: string;
    toolCalls?: ToolCall[];
    /** Copied from the AssistantTurn as is; only the wire module that wrote it reads it. */
    providerData?: ProviderData;
  }
  | {
    role: "tool";
    toolCallId: string;
    name: string;
    content: string;
    isError: boolean;
    images?: ImagePart[];
  };

/** What the model is told about a tool. `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /**
   * A tool the provider runs on its side (`web_search`: Anthropic's web search tool, the Responses API's):
   * each wire that has it sends its own declaration instead of a function; a wire without it leaves it out.
   */
  server?: "web_search";
}

/**
 * Which tool the model must call: "auto" (its choice, the default), "required" (some tool), "none", or one
 * tool by name. Each wire maps it to its own words.
 */
export type ToolChoice = "auto" | "required" | "none" | { name: string };

/** One model call's input. */
export interface ChatRequest {
  model: string;
  messages: Message[];
  tools: ToolSpec[];
  /** Absent: the wire sends nothing (the provider's default, auto). */
  toolChoice?: ToolChoice;
}

/** Incremental output of one model call, in arrival order. */
export type StreamEvent =
  | { type: "reasoning_delta"; text: string }
  | { type: "text_delta"; text: string };

/** What went wrong in a model call, in words a caller can branch on. */
export type LlmErrorKind =
  | "http" // the server answered with an error status
  | "stream_error" // an error object arrived inside the stream
  | "interrupted" // the stream ended without [DONE] or a finish_reason
  | "network" // the connection failed or dropped
  | "bad_response" // the server sent something that is not a stream of the expected wire format
  | "aborted"; // the caller's AbortSignal fired

/** Words of an in-stream error from a server that is busy, not broken: another attempt may succeed. */
const OVERLOADED_WORDS = /overloaded|rate.?limit|too many requests|\b(429|529)\b/i;

/** A typed model-call failure carrying the provider's own message. */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly status?: number;
  /** Raw Retry-After header value, when the server sent one. */
  readonly retryAfter?: string;
  /** True when some text or reasoning of this attempt was already delivered to onEvent. */
  readonly partialOutput: boolean;

  constructor(
    kind: LlmErrorKind,
    message: string,
    options: {
      status?: number;
      retryAfter?: string;
      partialOutput?: boolean;
      cause?: unknown;
      /** Overrides the rule below, e.g. for an in-stream `overloaded_error`. */
      retryable?: boolean;
      /** Worth one more attempt, not more (a silent stream, an empty answer): see `retryOnce`. */
      retryOnce?: boolean;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "LlmError";
    this.kind = kind;
    this.status = options.status;
    this.retryAfter = options.retryAfter;
    this.partialOutput = options.partialOutput ?? false;
    this.retryOnce = options.retryOnce ?? false;
    this.#retryable = options.retryable;
  }

  /**
   * True for a failure worth exactly one more attempt per model call: a server that went silent (each try
   * costs the whole wait) or an empty answer (a model that keeps answering nothing will not change its mind).
   */
  readonly retryOnce: boolean;

  readonly #retryable: boolean | undefined;

  /**
   * Whether a fresh attempt could succeed: 408, 409, 429 and every 5xx (529 is Anthropic's "overloaded"), a
   * network failure, an interrupted stream, an overloaded or rate-limited server said inside the stream.
   */
  get retryable(): boolean {
    if (this.#retryable !== undefined) return this.#retryable;
    if (this.kind === "network" || this.kind === "interrupted") return true;
    // An in-stream error names its type only in words ("overloaded_error", "rate_limit_exceeded").
    if (this.kind === "stream_error") return OVERLOADED_WORDS.test(this.message);
    if (this.kind === "http" && this.status !== undefined) {
      return [408, 409, 429].includes(this.status) || (this.status >= 500 && this.status <= 599);
    }
    return false;
  }
}

/** A streaming model client, whatever the wire format (see createClient in client.ts). */
export interface LlmClient {
  /**
   * Runs one model call, delivering deltas to `onEvent` as they arrive. Resolves only with a complete turn
   * (the wire's own end marker seen, e.g. [DONE] or a finish_reason); otherwise rejects with an LlmError.
   * Never returns a half turn.
   */
  stream(
    request: ChatRequest,
    signal: AbortSignal,
    onEvent: (event: StreamEvent) => void,
  ): Promise<AssistantTurn>;
  /**
   * The size in UTF-8 bytes of the body `stream(request)` would send now, serialised as this client's wire
   * does it (system prompt, tools, every message). Sends nothing.
   */
  requestBytes(request: ChatRequest): number;
}
