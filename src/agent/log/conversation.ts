/**
 * One conversation: the append-only log of what happened, the files the model has seen, and the user's
 * approval decisions. Nothing edits an old entry; what a request sends is a projection of the log.
 */
import type { ImagePart, Message, ToolCall, Usage } from "../../llm/types.ts";
import { createFileTracker } from "../../fs/file_tracker.ts";
import type { FileTracker, ToolDetails, ToolErrorKind } from "../../tools/tool.ts";
import { ApprovalSession } from "../policy/approval.ts";
import { abbreviateCall, type CutOutput, cutOutput, DROPPED_OUTPUT } from "./compact.ts";
import { wrapToolResult } from "../policy/untrusted.ts";

/** What a summary message starts with, so the model knows the earlier conversation was condensed. */
export const SUMMARY_PREFIX =
  "[The earlier part of this conversation, summarised to fit the context window:]";

/** The assistant's side of the log, exactly as it goes back to the provider. */
export type AssistantMessage = Extract<Message, { role: "assistant" }>;

/** One thing in the log, in order. */
export type Entry =
  /**
   * What the user typed, with the images it attached (`@shot.png`); `from: "tern"` marks tern's own
   * user-role words (the request for a report).
   */
  | { kind: "user"; text: string; from?: "tern"; images?: ImagePart[] }
  | { kind: "assistant"; message: AssistantMessage }
  /** A tool call's result, unwrapped: the projection wraps it as untrusted data. */
  | {
    kind: "tool_result";
    callId: string;
    name: string;
    content: string;
    isError: boolean;
    errorKind?: ToolErrorKind;
    details?: ToolDetails;
    /** What the tool returned as images (read_file of a PNG); dropped with the output by compaction. */
    images?: ImagePart[];
  }
  /** tern's reminder about one result (the runaway guard's), sent after that result's wrapper. */
  | { kind: "reminder"; callId: string; text: string }
  /**
   * From here on, these tool outputs are dropped, these calls' long arguments abbreviated, and these
   * outputs (too large for the window on their own) cut to their head with a note on reading the rest.
   */
  | { kind: "compaction"; droppedOutputs: string[]; abbreviatedCalls: string[]; cutOutputs?: CutOutput[] }
  /** Something the user was told; never sent to the model. */
  | { kind: "notice"; text: string }
  /** A summary of the log before entry `replaces` (exclusive), sent instead of those entries from here on. */
  | { kind: "summary"; text: string; replaces: number }
  /** Undo: the entries from index `to` up to this one are no longer part of the conversation. */
  | { kind: "rewind"; to: number }
  /** The project tree as it was before the next prompt (a shadow-git tree id); never sent to the model. */
  | { kind: "snapshot"; tree: string }
  /** One model call's tokens and the model that made it: a resumed session's totals; never sent to the model. */
  | { kind: "usage"; usage: Usage; model: string }
  /** From here on another model answers (`/model`, a resumed session); never sent to the model. */
  | { kind: "model_change"; provider: string; model: string; endpoint: string; api: string };

/** What the compactions so far do to the log: outputs dropped, calls abbreviated, outputs cut. */
interface Compacted {
  dropped: Set<string>;
  abbreviated: Set<string>;
  cuts: Map<string, CutOutput>;
}

/** Entries that change how earlier entries are sent: the request after one is projected afresh. */
const RESHAPING = new Set<Entry["kind"]>(["compaction", "summary", "rewind"]);

/** A projection of the log so far: the messages, where each result sits in them, the compactions applied. */
interface Projection {
  length: number;
  out: Message[];
  results: Map<string, number>;
  compacted: Compacted;
}

/** Settings of a conversation. */
export interface ConversationOptions {
  /** The system prompt, fixed for the conversation so every request's prefix is byte-identical. */
  systemPrompt: string;
  /** The stale-write guard's memory (a resumed session passes the one it restored). */
  files?: FileTracker;
  /** The log of a resumed session, replayed without telling subscribers. */
  entries?: readonly Entry[];
}

/** The log of one conversation and what lives as long as it. `/clear` starts a new one. */
export class Conversation {
  readonly systemPrompt: string;
  /** Files the model has seen: the stale-write guard of the tools that change files. */
  readonly files: FileTracker;
  /** "Don't ask again" answers given in this conversation. */
  readonly approvals = new ApprovalSession();
  readonly #entries: Entry[] = [];
  readonly #listeners = new Set<(entry: Entry) => void>();
  /** Wrapped tool results by entry: wrapping is deterministic, so it is done once. */
  readonly #wrapped = new WeakMap<Entry, string>();
  /**
   * The message each entry projects to when no compaction touches it, made once: the same objects from
   * request to request, so a wire can keep what it built from them (their JSON) instead of redoing it.
   */
  readonly #projected = new WeakMap<Entry, { variant: unknown; message: Message }>();
  /** The system message, one object for the conversation. */
  readonly #system: Message;
  /** The last request's messages, as of `length` entries, and what extending them needs. */
  #projection?: Projection;
  /** live() as of `length` entries: the log only grows, so its length says whether it changed. */
  #live?: { length: number; live: { indices: number[]; summary?: number } };

  constructor(options: ConversationOptions) {
    this.systemPrompt = options.systemPrompt;
    this.#system = { role: "system", content: options.systemPrompt };
    this.files = options.files ?? createFileTracker();
    this.#entries.push(...options.entries ?? []);
  }

  /** The log so far (read-only). */
  get entries(): readonly Entry[] {
    return this.#entries;
  }

  /** Adds an entry at the end and tells every subscriber. */
  append(entry: Entry): void {
    this.#entries.push(entry);
    for (const listener of this.#listeners) listener(entry);
  }

  /** Calls `listener` with each entry appended from now on; returns the unsubscribe function. */
  subscribe(listener: (entry: Entry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The indices of the entries still in the conversation, in order: undone turns (rewinds) left out, and
   * everything the latest summary replaces (kept with `summarised`: undo goes back to turns a summary
   * replaced). `summary` is that summary's index, when there is one.
   */
  live(options: { summarised?: boolean } = {}): { indices: number[]; summary?: number } {
    // The summarised view (undo's) is rare: found afresh; the model's view is kept from request to request.
    if (options.summarised) return this.#findLive(true);
    const length = this.#entries.length;
    const kept = this.#live;
    if (kept !== undefined && kept.length !== length && !this.#reshapedSince(kept.length)) {
      // Only entries after the last ones: each of them is live, and nothing before changed.
      for (let i = kept.length; i < length; i++) kept.live.indices.push(i);
      kept.length = length;
    }
    if (this.#live?.length !== length) this.#live = { length, live: this.#findLive(false) };
    const { indices, summary } = this.#live.live;
    // A copy: callers may change what they get, never the kept one.
    return { indices: [...indices], ...summary !== undefined && { summary } };
  }

  #findLive(summarised: boolean): { indices: number[]; summary?: number } {
    const dead = new Set<number>();
    this.#entries.forEach((entry, i) => {
      if (entry.kind !== "rewind") return;
      for (let j = entry.to; j <= i; j++) dead.add(j);
    });
    let indices = this.#entries.map((_, i) => i).filter((i) => !dead.has(i));
    const summary = indices.findLast((i) => this.#entries[i].kind === "summary");
    if (summary === undefined || summarised) return { indices };
    const { replaces } = this.#entries[summary] as Extract<Entry, { kind: "summary" }>;
    indices = indices.filter((i) => i >= replaces && i !== summary);
    return { indices, summary };
  }

  /** True when an entry from index `from` on changes how earlier ones are sent (compaction, summary, undo). */
  #reshapedSince(from: number): boolean {
    for (let i = from; i < this.#entries.length; i++) if (RESHAPING.has(this.#entries[i].kind)) return true;
    return false;
  }

  /**
   * The messages of the next request: the system prompt, then the log with every compaction applied. Made
   * from the last request's when the log only grew by entries that change nothing before them.
   */
  messages(): Message[] {
    const kept = this.#projection;
    if (kept !== undefined && !this.#reshapedSince(kept.length)) {
      this.#extend(kept, this.#entries.slice(kept.length));
      return [...kept.out];
    }
    const { indices, summary } = this.live();
    const entries = indices.map((i) => this.#entries[i]);
    const compacted: Compacted = { dropped: new Set(), abbreviated: new Set(), cuts: new Map() };
    for (const entry of entries) {
      if (entry.kind !== "compaction") continue;
      entry.droppedOutputs.forEach((id) => compacted.dropped.add(id));
      entry.abbreviatedCalls.forEach((id) => compacted.abbreviated.add(id));
      for (const cut of entry.cutOutputs ?? []) {
        const earlier = compacted.cuts.get(cut.callId);
        if (!earlier || cut.keepChars < earlier.keepChars) compacted.cuts.set(cut.callId, cut);
      }
    }
    const out: Message[] = [this.#system];
    if (summary !== undefined) {
      const { text } = this.#entries[summary] as Extract<Entry, { kind: "summary" }>;
      out.push({ role: "user", content: `${SUMMARY_PREFIX}\n\n${text}` });
    }
    const projection: Projection = { length: 0, out, results: new Map(), compacted };
    this.#extend(projection, entries);
    this.#projection = projection;
    return [...out];
  }

  /** Adds what `entries` send to `projection`, which then covers the whole log. */
  #extend(projection: Projection, entries: readonly Entry[]): void {
    const { out, results, compacted } = projection;
    for (const entry of entries) {
      if (entry.kind === "tool_result") results.set(entry.callId, out.length);
      const at = entry.kind === "reminder" ? results.get(entry.callId) : undefined;
      if (at === undefined) {
        const message = this.#project(entry, compacted);
        if (message) out.push(message);
      } else {
        // A reminder goes after its result's wrapper, in a copy: the kept result stays as it was.
        const result = out[at] as Extract<Message, { role: "tool" }>;
        out[at] = { ...result, content: `${result.content}\n\n${(entry as { text: string }).text}` };
      }
    }
    projection.length = this.#entries.length;
  }

  /** The message one entry sends under the compactions so far (none for what is never sent). */
  #project(entry: Entry, compacted: Compacted): Message | undefined {
    switch (entry.kind) {
      case "user":
        return this.#kept(entry, () => ({
          role: "user",
          content: entry.text,
          ...entry.images && { images: entry.images },
        }));
      case "assistant": {
        const calls = entry.message.toolCalls ?? [];
        const ids = calls.filter((call) => compacted.abbreviated.has(call.id)).map((call) => call.id);
        if (ids.length === 0) return entry.message;
        return this.#kept(entry, () => abbreviate(entry.message, compacted.abbreviated), ids.join(" "));
      }
      case "tool_result": {
        const drop = compacted.dropped.has(entry.callId);
        const cut = compacted.cuts.get(entry.callId);
        return this.#kept(entry, () => ({
          role: "tool" as const,
          toolCallId: entry.callId,
          name: entry.name,
          content: drop ? DROPPED_OUTPUT : this.#wrap(entry, cut),
          isError: entry.isError,
          ...!drop && entry.images && { images: entry.images },
        }), drop ? DROPPED_OUTPUT : cut);
      }
      case "reminder": // one whose result is not in the request
        return this.#kept(entry, () => ({ role: "user", content: entry.text }));
    }
  }

  /**
   * The message `entry` projects to, made by `make` the first time and the same object afterwards, as long
   * as compaction treats it the same way (`variant`: dropped, cut, abbreviated; only ever moves on).
   */
  #kept(entry: Entry, make: () => Message, variant?: unknown): Message {
    const kept = this.#projected.get(entry);
    if (kept !== undefined && kept.variant === variant) return kept.message;
    const message = make();
    this.#projected.set(entry, { variant, message });
    return message;
  }

  #wrap(entry: Extract<Entry, { kind: "tool_result" }>, cut?: CutOutput): string {
    if (cut) return wrapToolResult(cutOutput(entry.content, cut), { error: entry.isError });
    let wrapped = this.#wrapped.get(entry);
    if (wrapped === undefined) {
      wrapped = wrapToolResult(entry.content, { error: entry.isError });
      this.#wrapped.set(entry, wrapped);
    }
    return wrapped;
  }
}

function abbreviate(message: AssistantMessage, ids: Set<string>): AssistantMessage {
  if (!message.toolCalls?.some((call) => ids.has(call.id))) return message;
  const toolCalls = message.toolCalls.map((call: ToolCall) => ids.has(call.id) ? abbreviateCall(call) : call);
  return { ...message, toolCalls };
}
