/** Pure assembly of chat-completions stream chunks into one AssistantTurn; no I/O, tested with plain data. */
import type { SseEvent } from "./sse.ts";
import { type AssistantTurn, LlmError, type StreamEvent, type ToolCall, type Usage } from "./types.ts";
import { parseEventData, StreamedText, toFinishReason, type WireAssembler } from "./wire.ts";

type Json = Record<string, unknown>;

interface PendingCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

/** Options of a ChatAssembler. */
export interface ChatAssemblerOptions {
  /** Where the stream comes from (e.g. the base URL), used in error messages. */
  source?: string;
}

/**
 * Folds SSE events (`push`), or parsed chunks (`pushChunk`) and the `[DONE]` sentinel (`done`), into
 * events and, at the end, one turn. Tolerates the quirks of OpenAI-compatible providers: fragments by index
 * or by position, ids only on the first fragment (or never), usage anywhere, reasoning in
 * `reasoning_content`, `reasoning` or content parts.
 */
export class ChatAssembler implements WireAssembler {
  #source: string;
  readonly #streamed = new StreamedText();
  #calls = new Map<number, PendingCall>();
  #lastIndex: number | undefined;
  #finishReason: string | undefined;
  #sawDone = false;
  #usage: Usage | undefined;
  #model: string | undefined;
  #chunks = 0;

  constructor(options: ChatAssemblerOptions = {}) {
    this.#source = options.source ?? "the model provider";
  }

  /** True once a text or reasoning delta was emitted (so a failure now loses visible output). */
  get hasOutput(): boolean {
    return this.#streamed.shown;
  }

  /** True once the stream said it is complete ([DONE] or a finish_reason). */
  get complete(): boolean {
    return this.#sawDone || this.#finishReason !== undefined;
  }

  /** True once `[DONE]` arrived: nothing meaningful follows it. */
  get ended(): boolean {
    return this.#sawDone;
  }

  /** Consumes one SSE event: `[DONE]`, nothing (keep-alive), or a JSON chunk. The event name is ignored. */
  push(event: SseEvent): StreamEvent[] {
    const data = event.data.trim();
    if (data === "[DONE]") {
      this.done();
      return [];
    }
    if (data === "") return [];
    return this.pushChunk(parseEventData(data, this.#source, this.#streamed.shown));
  }

  /** Consumes one parsed `data:` payload; returns its deltas. Throws LlmError on an in-stream error. */
  pushChunk(chunk: unknown): StreamEvent[] {
    this.#chunks++;
    if (!isObject(chunk)) {
      throw this.#error("bad_response", `${this.#source} sent a stream chunk that is not a JSON object`);
    }
    const problem = errorMessageOf(chunk);
    if (problem !== undefined) {
      throw this.#error("stream_error", `Stream error from ${this.#source}: ${problem}`);
    }
    if (typeof chunk.model === "string" && chunk.model !== "") this.#model = chunk.model;
    this.#takeUsage(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObject(choice)) return [];
    this.#takeUsage(choice.usage);
    const events: StreamEvent[] = [];
    if (isObject(choice.delta)) this.#takeDelta(choice.delta, events);
    if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") {
      this.#finishReason = choice.finish_reason;
    }
    return events;
  }

  /** Records the `data: [DONE]` sentinel. */
  done(): void {
    this.#sawDone = true;
  }

  /** Returns the complete turn; throws LlmError("interrupted") when the stream never said it was complete. */
  finish(): AssistantTurn {
    if (!this.complete) {
      throw this.#error(
        "interrupted",
        `The stream from ${this.#source} ended after ${this.#chunks} chunk(s) without [DONE] or a finish_reason`,
      );
    }
    const toolCalls = this.#toolCalls();
    // Without a finish_reason, only [DONE] ended the stream: the reason is inferred from what arrived.
    const finishReason = toFinishReason(this.#finishReason, toolCalls.length > 0);
    return this.#streamed.turn({
      toolCalls,
      finishReason,
      raw: this.#finishReason,
      usage: this.#usage,
      model: this.#model,
    });
  }

  #error(kind: "bad_response" | "stream_error" | "interrupted", message: string): LlmError {
    return new LlmError(kind, message, { partialOutput: this.#streamed.shown });
  }

  #takeDelta(delta: Json, events: StreamEvent[]): void {
    // vLLM may send both fields with the same text; prefer reasoning_content, never add both.
    const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
    if (reasoning) this.#streamed.addReasoning(reasoning, events);
    if (typeof delta.content === "string") this.#streamed.addText(delta.content, events);
    else if (Array.isArray(delta.content)) this.#takeContentParts(delta.content, events);
    if (Array.isArray(delta.tool_calls)) {
      const several = delta.tool_calls.length > 1;
      delta.tool_calls.forEach((fragment, position) => {
        if (isObject(fragment)) this.#takeToolFragment(fragment, { position, several });
      });
    }
  }

  /** Mistral sends content as parts: `{type:"thinking", thinking:[{type:"text", text}]}` and `{type:"text"}`. */
  #takeContentParts(parts: unknown[], events: StreamEvent[]): void {
    for (const part of parts) {
      if (!isObject(part)) continue;
      if (part.type === "text" && typeof part.text === "string") this.#streamed.addText(part.text, events);
      if (part.type !== "thinking") continue;
      if (typeof part.thinking === "string") this.#streamed.addReasoning(part.thinking, events);
      else if (Array.isArray(part.thinking)) {
        for (const inner of part.thinking) {
          if (isObject(inner) && typeof inner.text === "string") {
            this.#streamed.addReasoning(inner.text, events);
          }
        }
      }
    }
  }

  #takeToolFragment(fragment: Json, where: { position: number; several: boolean }): void {
    const id = nonEmpty(fragment.id);
    const fn = isObject(fragment.function) ? fragment.function : {};
    const name = nonEmpty(fn.name);
    const index = this.#indexOf(fragment.index, { id, name, ...where });
    let call = this.#calls.get(index);
    if (!call) {
      call = { index, id: "", name: "", arguments: "" };
      this.#calls.set(index, call);
    }
    this.#lastIndex = index;
    // Later fragments may repeat the id (or send "") and the name: the first non-empty value wins.
    if (id && !call.id) call.id = id;
    if (name && !call.name) call.name = name;
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
  }

  /**
   * Where a fragment belongs: its index, else the call with its id, else its position when the array holds
   * several fragments (each is then a different call), else the last call, else its position.
   */
  #indexOf(raw: unknown, hint: { id?: string; name?: string; position: number; several: boolean }): number {
    const { id, name, position, several } = hint;
    if (typeof raw === "number" && Number.isInteger(raw) && raw >= 0) return raw;
    if (typeof raw === "string" && /^\d+$/.test(raw)) return Number(raw);
    if (raw !== undefined && raw !== null) {
      throw this.#error(
        "bad_response",
        `${this.#source} sent a tool call with an invalid index ${JSON.stringify(raw)} (expected a number)`,
      );
    }
    if (id) {
      for (const call of this.#calls.values()) if (call.id === id) return call.index;
      if (!this.#calls.has(position)) return position;
      return this.#nextFreeIndex();
    }
    // Fragments side by side in one array are different calls: the position is the index.
    if (several) return position;
    // Neither index nor id: a continuation of the last call, unless it names a different function.
    const last = this.#lastIndex === undefined ? undefined : this.#calls.get(this.#lastIndex);
    if (!last) return this.#calls.has(position) ? this.#nextFreeIndex() : position;
    return name && last.name && name !== last.name ? this.#nextFreeIndex() : last.index;
  }

  #nextFreeIndex(): number {
    return Math.max(-1, ...this.#calls.keys()) + 1;
  }

  #toolCalls(): ToolCall[] {
    const calls = [...this.#calls.values()].sort((a, b) => a.index - b.index);
    return calls.map((call) => {
      if (!call.name) {
        throw this.#error("bad_response", `${this.#source} sent tool call #${call.index} without a name`);
      }
      // Some servers never send ids; the history still needs one to pair the result with the call.
      return { id: call.id || `call_${call.index}`, name: call.name, arguments: call.arguments };
    });
  }

  #takeUsage(raw: unknown): void {
    const usage = toUsage(raw);
    if (usage) this.#usage = usage; // providers repeat usage; the last report is the final one
  }
}

/** Maps a provider usage object to Usage, or undefined when it is absent or carries no token counts. */
export function toUsage(raw: unknown): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const prompt = num(raw.prompt_tokens);
  const completion = num(raw.completion_tokens);
  if (prompt === undefined && completion === undefined) return undefined;
  const usage: Usage = {
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
    totalTokens: num(raw.total_tokens) ?? (prompt ?? 0) + (completion ?? 0),
  };
  const promptDetails = isObject(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const cached = num(raw.prompt_cache_hit_tokens) ?? num(promptDetails.cached_tokens) ??
    num(raw.cached_tokens);
  if (cached !== undefined) usage.cachedTokens = cached;
  const completionDetails = isObject(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
  const reasoning = num(completionDetails.reasoning_tokens);
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/** The provider's message when a chunk is an error object (`{error:{...}}`, `{error:"..."}`, `{object:"error"}`). */
function errorMessageOf(chunk: Json): string | undefined {
  const err = chunk.error ?? (chunk.object === "error" || chunk.type === "error" ? chunk : undefined);
  if (err === undefined || err === null) return undefined;
  if (typeof err === "string") return err;
  if (!isObject(err)) return JSON.stringify(err);
  const message = nonEmpty(err.message) ?? JSON.stringify(err).slice(0, 300);
  const details = [err.type, err.code].filter((d) =>
    (typeof d === "string" && d !== "") || typeof d === "number"
  );
  return details.length > 0 ? `${message} (${details.join(", ")})` : message;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
