/**
 * What one chat-completions wire keeps from one request to the next. A conversation's requests grow by
 * appending (the earlier messages are the same objects), so the short tool-call ids, the wire form and the
 * JSON text of each message are worked out once, not again over the whole history at every request.
 * Every result equals what working it out afresh gives.
 */
import type { Json } from "./_json.ts";
import type { Message } from "./types.ts";
import { ByteBuffer } from "./_byte_buffer.ts";

/**
 * Tool-call ids that mean nothing to the model: random tokens (OpenAI's `call_` + 24 characters, DeepSeek's
 * `call_00_…`, tern's own `tern_…` for a server's missing or repeated id: llm/call_id.ts) or UUIDs. Ids that
 * may (Kimi's `weather_0`, Mistral's nine characters, which its API checks) are never touched.
 */
const OPAQUE_ID =
  /^(?:call_[A-Za-z0-9_]{16,}|tern_[A-Za-z0-9]{24}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The numbering so far: the messages it covers, their renamed forms, and the names given and kept. */
interface Numbering {
  inputs: Message[];
  outputs: Message[];
  short: Map<string, string>;
  /** Ids left as they are (not opaque): a short name never takes one. */
  kept: Set<string>;
  issued: Set<string>;
  next: number;
}

function fresh(): Numbering {
  return { inputs: [], outputs: [], short: new Map(), kept: new Set(), issued: new Set(), next: 0 };
}

/** The ids of `message` that are kept as they are. */
function keptIds(message: Message): string[] {
  const ids = message.role === "tool"
    ? [message.toolCallId]
    : message.role === "assistant"
    ? (message.toolCalls ?? []).map((call) => call.id)
    : [];
  return ids.filter((id) => !OPAQUE_ID.test(id));
}

/** Numbers `tail` after what `state` covers; false when a kept id in it was already given as a short name. */
function extend(state: Numbering, tail: readonly Message[]): boolean {
  const kept = tail.flatMap(keptIds);
  if (kept.some((id) => state.issued.has(id))) return false;
  kept.forEach((id) => state.kept.add(id));
  const shorten = (id: string) => {
    if (!OPAQUE_ID.test(id)) return id;
    let name = state.short.get(id);
    if (name === undefined) {
      // A kept id of the same shape (a server issuing `c3`) is never reused.
      do name = `c${++state.next}`; while (state.kept.has(name));
      state.short.set(id, name);
      state.issued.add(name);
    }
    return name;
  };
  for (const message of tail) {
    state.inputs.push(message);
    if (message.role === "tool") {
      state.outputs.push({ ...message, toolCallId: shorten(message.toolCallId) });
    } else if (message.role !== "assistant" || !message.toolCalls?.length) state.outputs.push(message);
    else {
      const toolCalls = message.toolCalls.map((call) => ({ ...call, id: shorten(call.id) }));
      state.outputs.push({ ...message, toolCalls });
    }
  }
  return true;
}

/** True when `messages` begins with every message `state` covers, the same objects. */
function continues(state: Numbering, messages: readonly Message[]): boolean {
  if (messages.length < state.inputs.length) return false;
  for (let i = 0; i < state.inputs.length; i++) if (messages[i] !== state.inputs[i]) return false;
  return true;
}

/**
 * A `withShortIds` that remembers: each opaque tool-call id replaced by a short one (`c1`, `c2`, … in order
 * of first appearance), the same in the call and in its result, numbered afresh whenever the messages are
 * not the last ones plus more (a compaction, an undo) or a new kept id is a name already given.
 */
export function shortIdsMemo(): (messages: readonly Message[]) => Message[] {
  let state = fresh();
  return (messages) => {
    if (!continues(state, messages) || !extend(state, messages.slice(state.inputs.length))) {
      state = fresh();
      extend(state, messages);
    }
    return [...state.outputs];
  };
}

const encoder = new TextEncoder();

/** One wire message per tern message and echo rule, and the JSON bytes of each, made once. */
export class WireMessages {
  readonly #forms = [new WeakMap<Message, Json>(), new WeakMap<Message, Json>()];
  readonly #bytes = new WeakMap<Json, Uint8Array>();
  /** The items of the last list joined into #buffer: the next request's list is usually it plus a few more. */
  #joined?: { items: Uint8Array[]; length: number };
  readonly #buffer = new ByteBuffer();

  /** The wire form of `message` (made by `make` the first time): the same object for the same message. */
  form(message: Message, echo: boolean, make: (message: Message) => Json): Json {
    const forms = this.#forms[echo ? 1 : 0];
    let form = forms.get(message);
    if (form === undefined) {
      form = make(message);
      forms.set(message, form);
    }
    return form;
  }

  /**
   * A comma, then the UTF-8 of `JSON.stringify(form)`: an array element as `jsonParts` takes it, worked
   * out once per form (nothing changes a form once made).
   */
  bytes(form: Json): Uint8Array {
    let bytes = this.#bytes.get(form);
    if (bytes === undefined) {
      bytes = encoder.encode(`,${JSON.stringify(form)}`);
      this.#bytes.set(form, bytes);
    }
    return bytes;
  }

  /**
   * `items` (each from `bytes`) in one array, the first one's comma included: when the last list is where
   * `items` begins, only the new ones are written, after it. The array is a view of one reused buffer,
   * valid until the next call: the request body is built from it at once.
   */
  joined(items: readonly Uint8Array[]): Uint8Array {
    const last = this.#joined;
    const continues = last !== undefined && items.length >= last.items.length &&
      last.items.every((item, i) => items[i] === item);
    const from = continues ? last.items.length : 0;
    const bytes = this.#buffer.write(items.slice(from), continues ? last.length : 0);
    this.#joined = { items: [...items], length: bytes.length };
    return bytes;
  }
}
