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

/** A conversation message in tern's own shape; the client maps it to the wire format. */
export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
    role: "assistant";
    content: string;
    /** Kept only on messages that carried tool calls (DeepSeek/Kimi require it back, even ""). */
    reasoning?: string;
    toolCalls?: ToolCall[];
    /** Copied from the AssistantTurn as is; only the wire module that wrote it reads it. */
    providerData?: ProviderData;
  }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

/** What the model is told about a tool. `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
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
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "LlmError";
    this.kind = kind;
    this.status = options.status;
    this.retryAfter = options.retryAfter;
    this.partialOutput = options.partialOutput ?? false;
    this.#retryable = options.retryable;
  }

  readonly #retryable: boolean | undefined;

  /** Whether a fresh attempt could succeed (408/409/429/5xx/529, network, interrupted, overloaded in-stream). */
  get retryable(): boolean {
    if (this.#retryable !== undefined) return this.#retryable;
    if (this.kind === "network" || this.kind === "interrupted") return true;
    // An in-stream error names its type only in words ("overloaded_error"); an overloaded server recovers.
    if (this.kind === "stream_error") return /\boverloaded/i.test(this.message);
    if (this.kind === "http" && this.status !== undefined) {
      // 529: Anthropic's "overloaded".
      return [408, 409, 429, 500, 502, 503, 504, 529].includes(this.status);
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
