/** Pure assembly of Anthropic Messages stream events into one AssistantTurn; no I/O, tested with plain data. */
import { AssemblerBase, usageOf } from "./_assembler_base.ts";
import { isObject, type Json, nonEmpty, num } from "./_json.ts";
import type { AssistantTurn, LlmError, StreamEvent, ToolCall, Usage } from "./types.ts";
import { toFinishReason } from "./wire.ts";

/** One content block as it streams: the block itself, plus the tool input's JSON text so far. */
interface Block {
  block: Json;
  json: string;
  /** An input_json_delta arrived (even an empty one): the streamed text, not `input`, is the input. */
  streamed: boolean;
}

/** In-stream error types that a fresh attempt may get past. */
const RETRYABLE_ERRORS = new Set(["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]);

/** Blocks that go back verbatim on the next request (thinking must, signature included). */
const KEPT_BLOCKS = new Set(["thinking", "redacted_thinking"]);

/**
 * Folds the events of one Messages stream (`message_start`, `content_block_start/delta/stop`,
 * `message_delta`, `message_stop`, `ping`, `error`) into deltas and, at the end, one turn. The type is read
 * from the JSON (`type`), so a replay without `event:` lines assembles the same.
 */
export class AnthropicAssembler extends AssemblerBase {
  #blocks = new Map<number, Block>();
  #stopReason: string | undefined;
  #stopped = false;
  #usage: Json = {};
  #model: string | undefined;

  constructor(options: { source?: string } = {}) {
    super(options.source, { unit: "event", endMarker: "a stop_reason or message_stop" });
  }

  /** True once `message_delta` carried a stop_reason (or `message_stop` arrived). */
  get complete(): boolean {
    return this.#stopReason !== undefined || this.#stopped;
  }

  /** True once `message_stop` arrived. */
  get ended(): boolean {
    return this.#stopped;
  }

  /** Reads one event by its `type`. Throws LlmError on an `error` event. */
  protected take(payload: Json, events: StreamEvent[]): void {
    switch (payload.type) {
      case "message_start":
        this.#start(isObject(payload.message) ? payload.message : {});
        break;
      case "content_block_start":
        this.#blockStart(payload, events);
        break;
      case "content_block_delta":
        this.#blockDelta(payload, events);
        break;
      case "message_delta": {
        const delta = isObject(payload.delta) ? payload.delta : {};
        if (typeof delta.stop_reason === "string") this.#stopReason = delta.stop_reason;
        if (isObject(payload.usage)) this.#usage = { ...this.#usage, ...payload.usage };
        break;
      }
      case "message_stop":
        this.#stopped = true;
        break;
      case "error":
        throw this.#streamError(payload.error);
      default:
        break; // ping, content_block_stop, and event types added later carry nothing we need
    }
  }

  protected assemble(): AssistantTurn {
    const ordered = [...this.#blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b);
    const toolCalls = ordered.filter((b) => b.block.type === "tool_use").map((b) => this.#toolCall(b));
    const finishReason = toFinishReason(this.#stopReason, toolCalls.length > 0);
    const turn = this.turn({
      toolCalls,
      finishReason,
      raw: this.#stopReason,
      usage: toAnthropicUsage(this.#usage),
      model: this.#model,
    });
    const kept = ordered.filter((b) => KEPT_BLOCKS.has(String(b.block.type))).map((b) => b.block);
    if (kept.length > 0) turn.providerData = { api: "anthropic", blocks: kept };
    return turn;
  }

  /** A new message: a second `message_start` (a spliced, retried stream) replaces all of the first. */
  #start(message: Json): void {
    this.#blocks.clear();
    this.text = "";
    this.reasoning = "";
    this.#stopReason = undefined;
    this.#usage = isObject(message.usage) ? { ...message.usage } : {};
    this.#model = nonEmpty(message.model) ?? this.#model;
  }

  #blockStart(payload: Json, events: StreamEvent[]): void {
    const index = this.#index(payload.index);
    const block = isObject(payload.content_block) ? { ...payload.content_block } : {};
    this.#blocks.set(index, { block, json: "", streamed: false });
    if (block.type === "text" && typeof block.text === "string") this.addText(block.text, events);
    if (block.type === "thinking" && typeof block.thinking === "string") {
      this.addReasoning(block.thinking, events);
    }
  }

  #blockDelta(payload: Json, events: StreamEvent[]): void {
    const index = this.#index(payload.index);
    const entry = this.#blocks.get(index);
    if (!entry) {
      throw this.error(
        "bad_response",
        `${this.source} sent a delta for content block ${index}, which never started`,
      );
    }
    const delta = isObject(payload.delta) ? payload.delta : {};
    const { block } = entry;
    switch (delta.type) {
      case "text_delta":
        if (typeof delta.text === "string") {
          block.text = String(block.text ?? "") + delta.text;
          this.addText(delta.text, events);
        }
        break;
      case "thinking_delta":
        if (typeof delta.thinking === "string") {
          block.thinking = String(block.thinking ?? "") + delta.thinking;
          this.addReasoning(delta.thinking, events);
        }
        break;
      case "signature_delta":
        if (typeof delta.signature === "string") {
          block.signature = String(block.signature ?? "") + delta.signature;
        }
        break;
      case "input_json_delta":
        if (typeof delta.partial_json === "string") {
          entry.json += delta.partial_json;
          entry.streamed = true;
        }
        break;
      default:
        break; // citations_delta and later kinds: nothing tern shows
    }
  }

  #toolCall(entry: Block): ToolCall {
    const { block } = entry;
    const id = nonEmpty(block.id);
    const name = nonEmpty(block.name);
    if (!id || !name) {
      throw this.error("bad_response", `${this.source} sent a tool_use block without an id or a name`);
    }
    // No input at all (or only an empty delta) means no arguments: "{}", never "".
    const streamed = entry.json.trim();
    const given = isObject(block.input) && Object.keys(block.input).length > 0
      ? JSON.stringify(block.input)
      : "{}";
    return { id, name, arguments: entry.streamed && streamed !== "" ? entry.json : given };
  }

  #index(raw: unknown): number {
    if (typeof raw === "number" && Number.isInteger(raw) && raw >= 0) return raw;
    throw this.error(
      "bad_response",
      `${this.source} sent a content block with an invalid index ${JSON.stringify(raw)}`,
    );
  }

  #streamError(raw: unknown): LlmError {
    const err = isObject(raw) ? raw : {};
    const type = nonEmpty(err.type);
    const message = nonEmpty(err.message) ?? "no details given";
    return this.streamError(
      `${message}${type ? ` (${type})` : ""}`,
      type !== undefined && RETRYABLE_ERRORS.has(type),
    );
  }
}

/**
 * Messages usage in tern's words: prompt tokens are the uncached input plus cache writes plus cache reads
 * (Anthropic counts them apart); the last report of each field wins (message_delta may correct message_start).
 */
export function toAnthropicUsage(raw: Json): Usage | undefined {
  const input = num(raw.input_tokens);
  const output = num(raw.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const written = num(raw.cache_creation_input_tokens);
  const read = num(raw.cache_read_input_tokens);
  const details = isObject(raw.output_tokens_details) ? raw.output_tokens_details : {};
  return usageOf({
    prompt: (input ?? 0) + (written ?? 0) + (read ?? 0),
    completion: output,
    cached: read,
    cacheWrite: written,
    reasoning: num(details.thinking_tokens),
  });
}
