/** OpenAI-compatible chat completions: the request body, and a streaming client over fetch + SSE. */
import { readSseData } from "./sse.ts";
import { TurnAssembler } from "./turn_assembler.ts";
import {
  type AssistantTurn,
  type ChatRequest,
  type LlmClient,
  LlmError,
  type Message,
  type StreamEvent,
} from "./types.ts";

export { TurnAssembler } from "./turn_assembler.ts";

/** Maps one tern message to its chat-completions wire form. */
export function toWireMessage(message: Message): Record<string, unknown> {
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
        // DeepSeek and Kimi reject a tool-call message without reasoning_content, even an empty one.
        reasoning_content: message.reasoning ?? "",
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
export function buildRequestBody(req: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: req.model,
    messages: req.messages.map(toWireMessage),
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
  if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  return body;
}

/** Options of a ChatCompletionsClient. */
export interface ChatCompletionsClientOptions {
  /** e.g. `https://api.deepseek.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when given. */
  apiKey?: string;
  /** Extra request headers (provider quirks). */
  headers?: Record<string, string>;
  /** Longest wait for the response headers (default 120 s). */
  fetchTimeoutMs?: number;
  /** Longest silence between two pieces of the stream before it counts as dropped (default 300 s). */
  idleTimeoutMs?: number;
}

/** A watchdog that aborts its signal when not fed in time; `stop` clears the timer. */
class Watchdog {
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the timer fired: which wait ran out. */
  expired: string | undefined;

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  arm(ms: number, what: string): void {
    this.stop();
    this.#timer = setTimeout(() => {
      this.expired = `${what} within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`;
      this.#controller.abort(new Error(this.expired));
    }, ms);
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** Streams one chat completion per call from an OpenAI-compatible endpoint; see LlmClient for the contract. */
export class ChatCompletionsClient implements LlmClient {
  readonly #baseUrl: string;
  readonly #options: ChatCompletionsClientOptions;

  constructor(options: ChatCompletionsClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#options = options;
  }

  /** Runs one streamed model call; rejects with a typed LlmError, never resolves with a half turn. */
  async stream(
    request: ChatRequest,
    signal: AbortSignal,
    onEvent: (event: StreamEvent) => void,
  ): Promise<AssistantTurn> {
    const watchdog = new Watchdog();
    try {
      const response = await this.#post(request, signal, watchdog);
      return await this.#consume(response, signal, watchdog, onEvent);
    } finally {
      watchdog.stop();
    }
  }

  async #post(request: ChatRequest, signal: AbortSignal, watchdog: Watchdog): Promise<Response> {
    if (signal.aborted) throw aborted(false);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...this.#options.headers,
    };
    if (this.#options.apiKey) headers.authorization = `Bearer ${this.#options.apiKey}`;
    watchdog.arm(this.#options.fetchTimeoutMs ?? 120_000, "no response");
    let response: Response;
    try {
      response = await fetch(`${this.#baseUrl}/chat/completions`, {
        method: "POST",
        headers,
        body: JSON.stringify(buildRequestBody(request)),
        signal: AbortSignal.any([signal, watchdog.signal]),
      });
    } catch (error) {
      if (signal.aborted) throw aborted(false);
      const why = watchdog.expired ?? describeCause(error);
      throw new LlmError("network", `Could not reach ${this.#baseUrl}: ${why}`, { cause: error });
    }
    if (response.ok) return response;
    const error = await this.#httpError(response);
    throw signal.aborted ? aborted(false) : error;
  }

  async #httpError(response: Response): Promise<LlmError> {
    const text = await response.text().catch(() => "");
    const detail = providerMessage(text) || response.statusText || "no details given";
    return new LlmError("http", `HTTP ${response.status} from ${this.#baseUrl}: ${detail}`, {
      status: response.status,
      retryAfter: response.headers.get("retry-after") ?? undefined,
    });
  }

  async #consume(
    response: Response,
    signal: AbortSignal,
    watchdog: Watchdog,
    onEvent: (event: StreamEvent) => void,
  ): Promise<AssistantTurn> {
    const type = response.headers.get("content-type") ?? "";
    if (!response.body || /json/i.test(type)) {
      const text = await response.text().catch(() => "");
      const detail = providerMessage(text) || `expected an event stream, got ${type || "no content type"}`;
      throw new LlmError("bad_response", `${this.#baseUrl} did not stream: ${detail}`);
    }
    const idleMs = this.#options.idleTimeoutMs ?? 300_000;
    const assembler = new TurnAssembler({ source: this.#baseUrl });
    const payloads = readSseData(response.body);
    try {
      while (true) {
        watchdog.arm(idleMs, "no data");
        const payload = await this.#next(payloads, assembler, signal, watchdog);
        if (payload === undefined) break;
        if (payload === "[DONE]") {
          assembler.done();
          break; // nothing meaningful follows [DONE]; stop reading so the connection is released
        }
        if (payload === "") continue;
        for (const event of assembler.push(this.#parse(payload, assembler))) onEvent(event);
      }
    } finally {
      await payloads.return(undefined);
    }
    if (signal.aborted) throw aborted(assembler.hasOutput);
    return assembler.finish();
  }

  #parse(payload: string, assembler: TurnAssembler): unknown {
    try {
      return JSON.parse(payload);
    } catch {
      const message = `${this.#baseUrl} sent a stream event that is not JSON: ${clip(payload, 120)}`;
      throw new LlmError("bad_response", message, { partialOutput: assembler.hasOutput });
    }
  }

  /** The next trimmed payload, or undefined at the end; read failures become typed errors. */
  async #next(
    payloads: AsyncGenerator<string>,
    assembler: TurnAssembler,
    signal: AbortSignal,
    watchdog: Watchdog,
  ): Promise<string | undefined> {
    try {
      const next = await payloads.next();
      return next.done ? undefined : next.value.trim();
    } catch (error) {
      if (signal.aborted) throw aborted(assembler.hasOutput);
      // A drop after the model said it was done loses nothing but trailing usage.
      if (assembler.complete) return undefined;
      const why = watchdog.expired ?? describeCause(error);
      const message = `The connection to ${this.#baseUrl} dropped mid-stream: ${why}`;
      throw new LlmError("network", message, { partialOutput: assembler.hasOutput, cause: error });
    }
  }
}

function aborted(partialOutput: boolean): LlmError {
  return new LlmError("aborted", "The model call was cancelled", { partialOutput });
}

/** The provider's own words from an error body: `error.message`, `message`, `detail`, or the text itself. */
export function providerMessage(body: string): string {
  const trimmed = body.trim();
  if (trimmed === "") return "";
  try {
    const json = JSON.parse(trimmed);
    const err = json?.error ?? json;
    if (typeof err === "string") return clip(err, 300);
    for (const value of [err?.message, err?.detail, json?.message, json?.detail]) {
      if (typeof value === "string" && value.trim() !== "") return clip(value.trim(), 300);
    }
  } catch {
    // Not JSON (an HTML error page, a proxy's text): fall through to the raw text.
  }
  return clip(trimmed.replace(/\s+/g, " "), 300);
}

/** The innermost cause of a fetch failure, without the URL noise or a stack trace. */
function describeCause(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  const message = inner instanceof Error ? inner.message : String(inner);
  const cleaned = message
    .replace(/^error sending request for url \([^)]*\):\s*/, "")
    .replace(/^client error \([^)]*\):\s*/, "")
    .trim();
  return cleaned || "connection failed";
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
