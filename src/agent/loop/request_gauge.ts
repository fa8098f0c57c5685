/**
 * How many tokens a request will take, before it is sent: its body measured as the wire in use serialises
 * it (system prompt, tools, every message), at four bytes a token until the provider's reported usage says
 * the model's tokens are denser. One gauge per model: a switch starts a new one (another tokenizer).
 */
import { type ChatRequest, IMAGE_TOKENS, type LlmClient, type Message, type Usage } from "../../llm/types.ts";
import { utf8Length } from "../../llm/transport.ts";

/** Bytes a token at most, before calibration: English prose and code run 3.5-4.5 on the wires tern speaks. */
export const BYTES_PER_TOKEN = 4;

/** A request's size: bytes as sent, and the token estimate. */
export interface RequestSize {
  bytes: number;
  tokens: number;
  /** Images in the request and the bytes of their base64 data: each counts IMAGE_TOKENS, not its bytes. */
  images?: { count: number; bytes: number };
}

/** The images of `messages`: how many, and the bytes of their data (base64 is ASCII: a byte a character). */
function imagesOf(messages: readonly Message[]): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const message of messages) {
    if (message.role !== "user" && message.role !== "tool") continue;
    for (const image of message.images ?? []) {
      count++;
      bytes += image.data.length;
    }
  }
  return { count, bytes };
}

/**
 * Estimates requests for one client and learns from usage. Calibration only makes the estimate larger:
 * a provider that counts fewer tokens than bytes / 4 (or a server that reports made-up usage) is not
 * trusted to shrink it, because an estimate too low sends a request the provider rejects, while one too
 * high only compacts a little early.
 */
export class RequestGauge {
  readonly #client: LlmClient;
  #tokensPerByte = 1 / BYTES_PER_TOKEN;
  #calibrated = false;

  constructor(client: LlmClient) {
    this.#client = client;
  }

  /** True once a reported usage raised the estimate above bytes / 4. */
  get calibrated(): boolean {
    return this.#calibrated;
  }

  /** Tokens a token estimate takes per byte now (at least 1/4). */
  get tokensPerByte(): number {
    return this.#tokensPerByte;
  }

  /** The request's size as the client would send it now. */
  measure(request: ChatRequest): RequestSize {
    const bytes = this.#client.requestBytes(request);
    const images = imagesOf(request.messages);
    if (images.count === 0) return { bytes, tokens: this.tokens(bytes) };
    const tokens = this.tokens(Math.max(0, bytes - images.bytes)) + images.count * IMAGE_TOKENS;
    return { bytes, tokens, images };
  }

  /** The token estimate of `bytes` of body. */
  tokens(bytes: number): number {
    return Math.ceil(bytes * this.#tokensPerByte);
  }

  /** About what one message adds to a body: its JSON in tern's shape (each wire's shape is close to it). */
  messageTokens(message: Message): number {
    const images = imagesOf([message]);
    const text = utf8Length(JSON.stringify(message)) - images.bytes;
    return this.tokens(Math.max(0, text)) + images.count * IMAGE_TOKENS;
  }

  /**
   * Learns from a call's reported usage: `size` is the measure of the request that produced it. The prompt
   * tokens (cached ones included: every wire reports them in `promptTokens`) over the bytes become the
   * rate, when denser than four bytes a token.
   */
  calibrate(size: RequestSize, usage: Usage | undefined): void {
    // Images are counted apart (IMAGE_TOKENS each): only the text's bytes and tokens teach the rate.
    const bytes = size.bytes - (size.images?.bytes ?? 0);
    const tokens = (usage?.promptTokens ?? 0) - (size.images?.count ?? 0) * IMAGE_TOKENS;
    if (!usage || bytes <= 0 || !(tokens > 0)) return;
    // Under four bytes a token is not trusted; over a token a byte is not a count of this request.
    const rate = Math.min(1, Math.max(1 / BYTES_PER_TOKEN, tokens / bytes));
    this.#tokensPerByte = rate;
    this.#calibrated = rate > 1 / BYTES_PER_TOKEN;
  }
}
