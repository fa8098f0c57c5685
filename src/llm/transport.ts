/**
 * The transport every wire format shares: POST with headers, a timeout for the response headers and an
 * idle watchdog on the stream, SSE reading, and HTTP and network failures as typed LlmErrors. What the
 * request and the stream mean is the wire module's business (see wire.ts).
 */
import { readSseEvents, type SseEvent } from "./sse.ts";
import { type AssistantTurn, type ChatRequest, type LlmClient, LlmError, type StreamEvent } from "./types.ts";
import type { Wire, WireAssembler, WireRequest } from "./wire.ts";
import { joinedBytes } from "../bytes.ts";
import { ByteBuffer } from "./_byte_buffer.ts";
import { after, type Timer } from "../timer.ts";

/** Where and how to send requests, whatever the wire. */
const encoder = new TextEncoder();

/** A request body built and measured, kept for the send that follows. */
interface Measured {
  request: ChatRequest;
  built: WireRequest;
  /** The body as sent: encoded once, to count its bytes and to send them. */
  body: Uint8Array<ArrayBuffer>;
}

export interface TransportOptions {
  /** e.g. `https://api.deepseek.com/v1`; the wire's path is appended. */
  baseUrl: string;
  /** Handed to the wire module, which puts it in its own auth header; absent for keyless servers. */
  apiKey?: string;
  /** Extra request headers (provider quirks); the wire's own headers win over them. */
  headers?: Record<string, string>;
  /** Longest wait for the response headers (default DEFAULT_FIRST_BYTE_MS: 120 s). */
  fetchTimeoutMs?: number;
  /** Longest silence between two pieces of the stream before it counts as dropped (default 90 s). */
  idleTimeoutMs?: number;
}

/** A watchdog that aborts its signal when not fed in time; `stop` clears the timer. */
class Watchdog {
  readonly #controller = new AbortController();
  #timer: Timer | undefined;
  /** Set when the timer fired: which wait ran out. */
  expired: string | undefined;

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  arm(ms: number, what: string): void {
    this.stop();
    this.#timer = after(ms, () => {
      this.expired = `${what} within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`;
      this.#controller.abort(new Error(this.expired));
    });
  }

  stop(): void {
    this.#timer?.clear();
    this.#timer = undefined;
  }
}

/** An LlmClient speaking `wire` over HTTP + SSE; see LlmClient for the contract. */
export class WireClient implements LlmClient {
  readonly #wire: Wire;
  #measured: Measured | undefined;
  /** Where measured bodies are joined: only requestBytes writes it, and #measured holds its last view. */
  readonly #bodies = new ByteBuffer();
  readonly #baseUrl: string;
  readonly #options: TransportOptions;

  constructor(wire: Wire, options: TransportOptions) {
    this.#wire = wire;
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
      const response = await this.#post(request, signal, watchdog).catch((error) => {
        // Once per rejection the wire may learn the server's rule (reasoning sent back or not) and resend.
        if (error instanceof LlmError && this.#wire.recover?.(error)) {
          return this.#post(request, signal, watchdog);
        }
        throw error;
      });
      return await this.#consume(response, signal, watchdog, onEvent);
    } catch (error) {
      throw withoutKey(error, this.#options.apiKey);
    } finally {
      watchdog.stop();
    }
  }

  /** The bytes of the JSON body `stream(request)` would POST (see LlmClient). */
  requestBytes(request: ChatRequest): number {
    // Built as `stream` will send it (the key goes in headers, never in the body), and kept for it.
    const built = this.#wire.buildRequest(request, { apiKey: this.#options.apiKey });
    const body = built.parts ? this.#bodies.write(built.parts) : encoder.encode(JSON.stringify(built.body));
    // The parts are views valid until the next build: only the body (fetch copies it) is kept.
    this.#measured = { request, built: { ...built, parts: undefined }, body };
    return body.length;
  }

  /**
   * The body last measured, if it was for a request equal to `request` field by field (the caller measures,
   * then sends a copy): built and serialised once, not twice, per model call. Taken once: a resend after
   * the wire learned something (recover) builds it afresh.
   */
  #takeMeasured(request: ChatRequest): Measured | undefined {
    const measured = this.#measured;
    this.#measured = undefined;
    const same = measured !== undefined && measured.request.model === request.model &&
      measured.request.messages === request.messages && measured.request.tools === request.tools &&
      measured.request.toolChoice === request.toolChoice;
    return same ? measured : undefined;
  }

  async #post(request: ChatRequest, signal: AbortSignal, watchdog: Watchdog): Promise<Response> {
    if (signal.aborted) throw aborted(false);
    const measured = this.#takeMeasured(request);
    const wire = measured?.built ?? this.#wire.buildRequest(request, { apiKey: this.#options.apiKey });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...this.#options.headers,
      ...wire.headers,
    };
    watchdog.arm(this.#options.fetchTimeoutMs ?? DEFAULT_FIRST_BYTE_MS, "no response");
    let response: Response;
    try {
      response = await fetch(`${this.#baseUrl}${wire.path}`, {
        method: "POST",
        headers,
        body: measured?.body ?? (wire.parts ? joinedBytes(wire.parts) : JSON.stringify(wire.body)),
        signal: AbortSignal.any([signal, watchdog.signal]),
      });
    } catch (error) {
      if (signal.aborted) throw aborted(false);
      const why = watchdog.expired ?? describeCause(error);
      // A server that kept silent is tried once more, not six times: each try costs the whole wait.
      const retryOnce = watchdog.expired !== undefined;
      throw new LlmError("network", `Could not reach ${this.#baseUrl}: ${why}`, { cause: error, retryOnce });
    }
    if (response.ok) return response;
    const error = await httpError(response, this.#baseUrl);
    throw signal.aborted ? aborted(false) : error;
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
    const idleMs = this.#options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
    const assembler = this.#wire.createAssembler(this.#baseUrl);
    const events = readSseEvents(response.body);
    try {
      while (!assembler.ended) {
        watchdog.arm(idleMs, "no data");
        const event = await this.#next(events, assembler, signal, watchdog);
        if (event === undefined) break;
        for (const delta of assembler.push(event)) onEvent(delta);
      }
    } finally {
      // Also after the end marker: nothing meaningful follows it, and the connection is released.
      await events.return(undefined);
    }
    if (signal.aborted) throw aborted(assembler.hasOutput);
    return assembler.finish();
  }

  /** The next event, or undefined at the end; read failures become typed errors. */
  async #next(
    events: AsyncGenerator<SseEvent>,
    assembler: WireAssembler,
    signal: AbortSignal,
    watchdog: Watchdog,
  ): Promise<SseEvent | undefined> {
    try {
      const next = await events.next();
      return next.done ? undefined : next.value;
    } catch (error) {
      if (signal.aborted) throw aborted(assembler.hasOutput);
      // A drop after the model said it was done loses nothing but trailing usage.
      if (assembler.complete) return undefined;
      const why = watchdog.expired ?? describeCause(error);
      const message = `The connection to ${this.#baseUrl} dropped mid-stream: ${why}`;
      const retryOnce = watchdog.expired !== undefined; // silent for the idle timeout: one more try
      throw new LlmError("network", message, { partialOutput: assembler.hasOutput, cause: error, retryOnce });
    }
  }
}

/**
 * The error with the API key cut out of its message: some providers echo the key in a 401 body, and the
 * message is printed, kept in the conversation and sent back to the model.
 */
function withoutKey(error: unknown, apiKey: string | undefined): unknown {
  // A real key is long; cutting a one-letter test key out of every word would only garble the message.
  if (!(error instanceof LlmError) || !apiKey || apiKey.length < 8 || !error.message.includes(apiKey)) {
    return error;
  }
  const { kind, status, retryAfter, partialOutput, retryable, retryOnce } = error;
  const message = error.message.replaceAll(apiKey, "[redacted key]");
  const options = { status, retryAfter, partialOutput, retryable, retryOnce, cause: error.cause };
  return new LlmError(kind, message, options);
}

function aborted(partialOutput: boolean): LlmError {
  return new LlmError("aborted", "The model call was cancelled", { partialOutput });
}

/** Longest wait for the response headers: reasoning models may think for minutes before the first byte. */
export const DEFAULT_FIRST_BYTE_MS = 120_000;
/** Longest silence between two pieces of a stream before it counts as dropped (and is retried). */
export const DEFAULT_IDLE_MS = 90_000;

/** An error status as an LlmError with the provider's own words and its Retry-After. */
async function httpError(response: Response, baseUrl: string): Promise<LlmError> {
  const text = await response.text().catch(() => "");
  const detail = providerMessage(text) || response.statusText || "no details given";
  return new LlmError("http", `HTTP ${response.status} from ${baseUrl}: ${detail}`, {
    status: response.status,
    retryAfter: response.headers.get("retry-after") ?? undefined,
  });
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

/** The UTF-8 length of `text`, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) i++, bytes += 2; // a surrogate pair: 4 bytes for 2 units
    else bytes += 2;
  }
  return bytes;
}
