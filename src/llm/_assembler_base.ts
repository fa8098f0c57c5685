/**
 * What the three stream assemblers share: the source named in errors, the text and reasoning streamed so far
 * (each piece also a delta event), SSE data parsed as JSON objects, the "interrupted" rule, and the turn and
 * usage built from what arrived. Each wire's assembler adds only how its own events read.
 */
import { isObject, type Json } from "./_json.ts";
import type { SseEvent } from "./sse.ts";
import {
  type AssistantTurn,
  type FinishReason,
  LlmError,
  type StreamEvent,
  type ToolCall,
  type Usage,
} from "./types.ts";
import { parseEventData, type WireAssembler } from "./wire.ts";

/** How a wire's messages name its stream: a "chunk" or an "event", and what marks its end. */
export interface StreamWords {
  unit: "chunk" | "event";
  /** What never came when the stream is cut, e.g. "[DONE] or a finish_reason". */
  endMarker: string;
}

/** The base of ChatAssembler, AnthropicAssembler and ResponsesAssembler. */
export abstract class AssemblerBase implements WireAssembler {
  /** Where the stream comes from (the base URL), named in error messages. */
  protected readonly source: string;
  /** The answer text streamed so far. */
  protected text = "";
  /** The reasoning streamed so far. */
  protected reasoning = "";
  #shown = false;
  #received = 0;
  readonly #words: StreamWords;

  constructor(source: string | undefined, words: StreamWords) {
    this.source = source ?? "the model provider";
    this.#words = words;
  }

  abstract get ended(): boolean;
  abstract get complete(): boolean;

  /** True once a text or reasoning delta was emitted (so a failure now loses visible output). */
  get hasOutput(): boolean {
    return this.#shown;
  }

  /** Consumes one SSE event: nothing for a keep-alive or `[DONE]`, else its JSON data. The name is ignored. */
  push(event: SseEvent): StreamEvent[] {
    const data = event.data.trim();
    if (data === "" || data === "[DONE]") return [];
    return this.pushEvent(parseEventData(data, this.source, this.#shown));
  }

  /** Consumes one event's parsed data; returns its deltas. Throws LlmError on an in-stream error. */
  pushEvent(payload: unknown): StreamEvent[] {
    this.#received++;
    if (!isObject(payload)) {
      throw this.error(
        "bad_response",
        `${this.source} sent a stream ${this.#words.unit} that is not a JSON object`,
      );
    }
    const events: StreamEvent[] = [];
    this.take(payload, events);
    return events;
  }

  /** Returns the complete turn; throws LlmError("interrupted") when the stream never said it was complete. */
  finish(): AssistantTurn {
    if (!this.complete) {
      const { unit, endMarker } = this.#words;
      throw this.error(
        "interrupted",
        `The stream from ${this.source} ended after ${this.#received} ${unit}(s) without ${endMarker}`,
      );
    }
    return this.assemble();
  }

  /** Reads one event (a JSON object), adding its deltas to `events`. */
  protected abstract take(payload: Json, events: StreamEvent[]): void;

  /** The turn, once the stream is complete. */
  protected abstract assemble(): AssistantTurn;

  /** Adds answer text and emits it as a text delta. */
  protected addText(text: string, events: StreamEvent[]): void {
    if (text === "") return;
    this.text += text;
    this.#shown = true;
    events.push({ type: "text_delta", text });
  }

  /** Adds reasoning and emits it as a reasoning delta. */
  protected addReasoning(text: string, events: StreamEvent[]): void {
    if (text === "") return;
    this.reasoning += text;
    this.#shown = true;
    events.push({ type: "reasoning_delta", text });
  }

  /**
   * The finished turn: what streamed, the calls and tern's finish reason, the provider's own word for the end
   * when it differs from tern's (`rawFinishReason`), and usage and model when the stream named them.
   */
  protected turn(end: {
    toolCalls: ToolCall[];
    finishReason: FinishReason;
    raw?: string;
    usage?: Usage;
    model?: string;
  }): AssistantTurn {
    const { toolCalls, finishReason, raw, usage, model } = end;
    const turn: AssistantTurn = { text: this.text, reasoning: this.reasoning, toolCalls, finishReason };
    if (raw !== undefined && raw !== finishReason) turn.rawFinishReason = raw;
    if (usage) turn.usage = usage;
    if (model) turn.model = model;
    return turn;
  }

  /** A failure of this stream, partial when output was already shown. */
  protected error(kind: "bad_response" | "interrupted", message: string): LlmError {
    return new LlmError(kind, message, { partialOutput: this.#shown });
  }

  /** An error the server sent inside the stream; `retryable` absent leaves it to LlmError's own rule. */
  protected streamError(message: string, retryable?: boolean): LlmError {
    return new LlmError("stream_error", `Stream error from ${this.source}: ${message}`, {
      partialOutput: this.#shown,
      retryable,
    });
  }
}

/** A wire's token counts in tern's words; undefined when neither prompt nor completion tokens were counted. */
export function usageOf(counts: {
  prompt?: number;
  completion?: number;
  /** Absent: prompt plus completion. */
  total?: number;
  cached?: number;
  cacheWrite?: number;
  reasoning?: number;
}): Usage | undefined {
  const { prompt, completion } = counts;
  if (prompt === undefined && completion === undefined) return undefined;
  const usage: Usage = {
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
    totalTokens: counts.total ?? (prompt ?? 0) + (completion ?? 0),
  };
  if (counts.cached !== undefined) usage.cachedTokens = counts.cached;
  if (counts.cacheWrite !== undefined) usage.cacheWriteTokens = counts.cacheWrite;
  if (counts.reasoning !== undefined) usage.reasoningTokens = counts.reasoning;
  return usage;
}
