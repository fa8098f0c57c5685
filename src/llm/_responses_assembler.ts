/** Pure assembly of OpenAI Responses stream events into one AssistantTurn; no I/O, tested with plain data. */
import { AssemblerBase, usageOf } from "./_assembler_base.ts";
import { isObject, type Json, nonEmpty, num } from "./_json.ts";
import type { AssistantTurn, LlmError, StreamEvent, ToolCall, Usage } from "./types.ts";
import { toFinishReason } from "./wire.ts";

/** One output item as it streams. */
interface Item {
  index: number;
  type: string;
  id?: string;
  callId?: string;
  name?: string;
  /** Function arguments, custom tool input, or an apply_patch operation as JSON. */
  input: string;
  /** A message item's text: its deltas, replaced by `output_text.done` / `output_item.done` when they differ. */
  text: string;
  /** The finished item as `output_item.done` sent it. */
  done?: Json;
}

/** Error codes that a fresh attempt may get past. */
const RETRYABLE_CODES = new Set([
  "server_error",
  "server_is_overloaded",
  "rate_limit_exceeded",
  "overloaded",
]);

/** Between two message items of one response (a commentary, then the answer): a paragraph break. */
const MESSAGE_BREAK = "\n\n";

/** Names under which some models wrap several calls into one (`{tool_uses: [...]}`). */
const PARALLEL_WRAPPERS = new Set(["parallel", "multi_tool_use.parallel"]);

/**
 * Folds the events of one Responses stream into deltas and, at the end, one turn: output items (reasoning,
 * message, function_call, custom_tool_call, apply_patch_call), text and reasoning deltas (summary or raw
 * reasoning text), and the terminal `response.completed` / `response.incomplete` / `response.failed`.
 * Events after the terminal one (a second response on the same stream) are ignored.
 */
export class ResponsesAssembler extends AssemblerBase {
  #items = new Map<number, Item>();
  #status: "completed" | "incomplete" | undefined;
  #incompleteReason: string | undefined;
  #usage: Usage | undefined;
  #model: string | undefined;

  constructor(options: { source?: string } = {}) {
    super(options.source, { unit: "event", endMarker: "response.completed or response.incomplete" });
  }

  /** True once `response.completed` or `response.incomplete` arrived. */
  get complete(): boolean {
    return this.#status !== undefined;
  }

  /** The terminal event ends the response: nothing after it belongs to this turn. */
  get ended(): boolean {
    return this.#status !== undefined;
  }

  /** Consumes one event's parsed data; nothing after the terminal event belongs to this turn. */
  override pushEvent(payload: unknown): StreamEvent[] {
    return this.ended ? [] : super.pushEvent(payload);
  }

  /** Reads one event by its `type`. Throws LlmError on `error` and `response.failed`. */
  protected take(payload: Json, events: StreamEvent[]): void {
    const type = String(payload.type ?? "");
    switch (type) {
      case "response.created":
      case "response.in_progress":
        this.#takeResponse(payload.response);
        break;
      case "response.output_item.added":
        this.#itemAdded(payload);
        break;
      case "response.output_item.done":
        this.#itemDone(payload, events);
        break;
      case "response.output_text.delta":
        this.#textDelta(this.#itemFor(payload), String(payload.delta ?? ""), events);
        break;
      case "response.output_text.done":
        if (typeof payload.text === "string") this.#finalText(this.#itemFor(payload), payload.text, events);
        break;
      case "response.reasoning_summary_part.added":
        // Summary parts are paragraphs: keep them apart.
        if ((num(payload.summary_index) ?? 0) > 0 && this.reasoning !== "") {
          this.addReasoning("\n\n", events);
        }
        break;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        this.addReasoning(String(payload.delta ?? ""), events);
        break;
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta":
        this.#inputDelta(payload);
        break;
      case "response.function_call_arguments.done":
        if (typeof payload.arguments === "string") this.#itemFor(payload).input = payload.arguments;
        break;
      case "response.completed":
      case "response.incomplete":
        this.#terminal(type, payload.response);
        break;
      case "response.failed":
        throw this.#failure(isObject(payload.response) ? payload.response.error : undefined);
      case "error":
        throw this.#failure(isObject(payload.error) ? payload.error : payload);
      default:
        break; // content_part.*, *.done echoes, and event types added later
    }
  }

  protected assemble(): AssistantTurn {
    const items = [...this.#items.values()].sort((a, b) => a.index - b.index);
    // The finished texts are authoritative; separate messages (commentary, then the answer) stay apart.
    const texts = items.filter((item) => item.type === "message" && item.text !== "").map((item) =>
      item.text
    );
    if (texts.length > 0) this.text = texts.join(MESSAGE_BREAK);
    const toolCalls = items.flatMap((item) => this.#toolCalls(item));
    // A cut response is never complete, whatever word the server used for the cut.
    const finishReason = this.#status === "incomplete"
      ? (toFinishReason(this.#incompleteReason, false) === "content_filter" ? "content_filter" : "length")
      : toFinishReason(undefined, toolCalls.length > 0);
    const turn = this.turn({
      toolCalls,
      finishReason,
      raw: this.#incompleteReason,
      usage: this.#usage,
      model: this.#model,
    });
    const reasoning = items.filter((item) => item.type === "reasoning" && item.done).map((item) =>
      item.done!
    );
    if (reasoning.length > 0) turn.providerData = { api: "responses", reasoning };
    return turn;
  }

  #takeResponse(raw: unknown): void {
    if (!isObject(raw)) return;
    this.#model = nonEmpty(raw.model) ?? this.#model;
    this.#usage = toResponsesUsage(raw.usage) ?? this.#usage;
  }

  #terminal(type: string, raw: unknown): void {
    this.#takeResponse(raw);
    this.#status = type === "response.completed" ? "completed" : "incomplete";
    if (this.#status === "incomplete") {
      const details = isObject(raw) && isObject(raw.incomplete_details) ? raw.incomplete_details : {};
      this.#incompleteReason = nonEmpty(details.reason) ?? "incomplete";
    }
  }

  #itemAdded(payload: Json): void {
    const raw = isObject(payload.item) ? payload.item : {};
    const index = num(payload.output_index) ?? this.#items.size;
    const item: Item = {
      index,
      type: String(raw.type ?? ""),
      id: nonEmpty(raw.id),
      callId: nonEmpty(raw.call_id),
      name: nonEmpty(raw.name),
      input: typeof raw.arguments === "string"
        ? raw.arguments
        : typeof raw.input === "string"
        ? raw.input
        : "",
      text: "",
    };
    this.#items.set(index, item);
  }

  #itemDone(payload: Json, events: StreamEvent[]): void {
    const raw = isObject(payload.item) ? payload.item : {};
    const item = this.#itemFor(payload, raw);
    item.done = raw;
    item.callId = nonEmpty(raw.call_id) ?? item.callId;
    item.name = nonEmpty(raw.name) ?? item.name;
    if (typeof raw.arguments === "string" && raw.arguments !== "") item.input = raw.arguments;
    if (typeof raw.input === "string" && raw.input !== "") item.input = raw.input;
    if (item.type === "apply_patch_call" && isObject(raw.operation)) {
      item.input = JSON.stringify(raw.operation);
    }
    // The finished message's text wins over its deltas; a server that sends it only whole still counts.
    if (item.type === "message" && Array.isArray(raw.content)) {
      const parts = raw.content.filter((part) => isObject(part) && part.type === "output_text");
      if (parts.length > 0) {
        this.#finalText(
          item,
          parts.map((part) => String(part.text ?? "")).join(""),
          events,
        );
      }
    }
  }

  /** A piece of a message item's text; the first piece of a later message is set apart from the one before. */
  #textDelta(item: Item, delta: string, events: StreamEvent[]): void {
    if (delta === "") return;
    if (item.text === "" && this.text !== "") this.addText(MESSAGE_BREAK, events);
    item.text += delta;
    this.addText(delta, events);
  }

  /**
   * A message item's finished text. When it continues what streamed, the rest is streamed too; when it
   * differs otherwise, it still replaces the deltas in the turn (what was shown cannot be taken back).
   */
  #finalText(item: Item, text: string, events: StreamEvent[]): void {
    if (text === item.text) return;
    if (text.startsWith(item.text)) return this.#textDelta(item, text.slice(item.text.length), events);
    item.text = text;
  }

  #inputDelta(payload: Json): void {
    this.#itemFor(payload).input += String(payload.delta ?? "");
  }

  /** The item an event belongs to, by output_index, else by item_id; created when the server skipped `added`. */
  #itemFor(payload: Json, raw: Json = {}): Item {
    const index = num(payload.output_index);
    const byIndex = index === undefined ? undefined : this.#items.get(index);
    if (byIndex) return byIndex;
    const id = nonEmpty(payload.item_id) ?? nonEmpty(raw.id);
    for (const item of this.#items.values()) if (id !== undefined && item.id === id) return item;
    const created: Item = {
      index: index ?? this.#items.size,
      type: String(raw.type ?? ""),
      id,
      input: "",
      text: "",
    };
    this.#items.set(created.index, created);
    return created;
  }

  /** The tool calls an item stands for: none, one, or the calls a parallel wrapper holds. */
  #toolCalls(item: Item): ToolCall[] {
    const kind = item.type;
    if (kind !== "function_call" && kind !== "custom_tool_call" && kind !== "apply_patch_call") return [];
    const name = kind === "apply_patch_call" ? "apply_patch" : item.name;
    if (!item.callId || !name) {
      throw this.error("bad_response", `${this.source} sent a ${kind} item without a call_id or a name`);
    }
    const call = { id: item.callId, name, arguments: item.input };
    return PARALLEL_WRAPPERS.has(name) ? unwrapParallel(call) : [call];
  }

  #failure(raw: unknown): LlmError {
    const err = isObject(raw) ? raw : {};
    const code = nonEmpty(err.code) ?? nonEmpty(err.type);
    const message = nonEmpty(err.message) ?? "the response failed without details";
    return this.streamError(
      `${message}${code ? ` (${code})` : ""}`,
      code !== undefined && RETRYABLE_CODES.has(code),
    );
  }
}

/**
 * The calls inside a `parallel` wrapper (`{tool_uses: [{recipient_name: "functions.x", parameters}]}`),
 * each with its own id (`<call_id>_<n>`); the wrapper itself when it does not hold that shape.
 */
export function unwrapParallel(call: ToolCall): ToolCall[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    return [call];
  }
  const uses = isObject(parsed) && Array.isArray(parsed.tool_uses) ? parsed.tool_uses : undefined;
  if (!uses || uses.length === 0 || !uses.every((u) => isObject(u) && typeof u.recipient_name === "string")) {
    return [call];
  }
  return uses.map((use, n) => ({
    id: `${call.id}_${n}`,
    name: String(use.recipient_name).replace(/^functions\./, ""),
    arguments: JSON.stringify(isObject(use.parameters) ? use.parameters : {}),
  }));
}

/** Responses usage in tern's words (input/output tokens, cached and cache-write input, reasoning output). */
export function toResponsesUsage(raw: unknown): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const inDetails = isObject(raw.input_tokens_details) ? raw.input_tokens_details : {};
  const outDetails = isObject(raw.output_tokens_details) ? raw.output_tokens_details : {};
  return usageOf({
    prompt: num(raw.input_tokens),
    completion: num(raw.output_tokens),
    total: num(raw.total_tokens),
    cached: num(inDetails.cached_tokens),
    cacheWrite: num(inDetails.cache_write_tokens),
    reasoning: num(outDetails.reasoning_tokens),
  });
}
