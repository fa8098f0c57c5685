/** Pure assembly of chat-completions stream chunks into one AssistantTurn; no I/O, tested with plain data. */
import { randomCallId } from "./call_id.ts";
import { AssemblerBase, usageOf } from "./_assembler_base.ts";
import { isObject, type Json, nonEmpty, num } from "./_json.ts";
import type { SseEvent } from "./sse.ts";
import type { AssistantTurn, StreamEvent, ToolCall, Usage } from "./types.ts";
import { toFinishReason } from "./wire.ts";

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
 * Folds SSE events (`push`), or parsed chunks (`pushEvent`) and the `[DONE]` sentinel (`done`), into
 * events and, at the end, one turn. Tolerates the quirks of OpenAI-compatible providers: fragments by index
 * or by position, ids only on the first fragment (or never), usage anywhere, reasoning in
 * `reasoning_content`, `reasoning` or content parts.
 */
export class ChatAssembler extends AssemblerBase {
  #calls = new Map<number, PendingCall>();
  #lastIndex: number | undefined;
  #finishReason: string | undefined;
  #sawDone = false;
  #usage: Usage | undefined;
  #model: string | undefined;

  constructor(options: ChatAssemblerOptions = {}) {
    super(options.source, { unit: "chunk", endMarker: "[DONE] or a finish_reason" });
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
  override push(event: SseEvent): StreamEvent[] {
    if (event.data.trim() === "[DONE]") this.done();
    return super.push(event);
  }

  /** Reads one chunk: an in-stream error, or model, usage, a delta and a finish_reason, each optional. */
  protected take(chunk: Json, events: StreamEvent[]): void {
    const problem = errorMessageOf(chunk);
    if (problem !== undefined) throw this.streamError(problem);
    this.#model = nonEmpty(chunk.model) ?? this.#model;
    this.#takeUsage(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObject(choice)) return;
    this.#takeUsage(choice.usage);
    if (isObject(choice.delta)) this.#takeDelta(choice.delta, events);
    this.#finishReason = nonEmpty(choice.finish_reason) ?? this.#finishReason;
  }

  /** Records the `data: [DONE]` sentinel. */
  done(): void {
    this.#sawDone = true;
  }

  protected assemble(): AssistantTurn {
    const toolCalls = this.#toolCalls();
    // Without a finish_reason, only [DONE] ended the stream: the reason is inferred from what arrived.
    const finishReason = toFinishReason(this.#finishReason, toolCalls.length > 0);
    return this.turn({
      toolCalls,
      finishReason,
      raw: this.#finishReason,
      usage: this.#usage,
      model: this.#model,
    });
  }

  #takeDelta(delta: Json, events: StreamEvent[]): void {
    // vLLM may send both fields with the same text; prefer reasoning_content, never add both.
    const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
    if (reasoning) this.addReasoning(reasoning, events);
    if (typeof delta.content === "string") this.addText(delta.content, events);
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
      if (part.type === "text" && typeof part.text === "string") this.addText(part.text, events);
      if (part.type !== "thinking") continue;
      if (typeof part.thinking === "string") this.addReasoning(part.thinking, events);
      else if (Array.isArray(part.thinking)) {
        for (const inner of part.thinking) {
          if (isObject(inner) && typeof inner.text === "string") {
            this.addReasoning(inner.text, events);
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
      throw this.error(
        "bad_response",
        `${this.source} sent a tool call with an invalid index ${JSON.stringify(raw)} (expected a number)`,
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
        throw this.error("bad_response", `${this.source} sent tool call #${call.index} without a name`);
      }
      // Some servers never send ids; the history still needs one to pair the result with the call.
      return { id: call.id || randomCallId(), name: call.name, arguments: call.arguments };
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
  const promptDetails = isObject(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const completionDetails = isObject(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
  return usageOf({
    prompt: num(raw.prompt_tokens),
    completion: num(raw.completion_tokens),
    total: num(raw.total_tokens),
    cached: num(raw.prompt_cache_hit_tokens) ?? num(promptDetails.cached_tokens) ?? num(raw.cached_tokens),
    reasoning: num(completionDetails.reasoning_tokens),
  });
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
