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

  constructor(options: ConversationOptions) {
    this.systemPrompt = options.systemPrompt;
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
    const dead = new Set<number>();
    this.#entries.forEach((entry, i) => {
      if (entry.kind !== "rewind") return;
      for (let j = entry.to; j <= i; j++) dead.add(j);
    });
    let indices = this.#entries.map((_, i) => i).filter((i) => !dead.has(i));
    const summary = indices.findLast((i) => this.#entries[i].kind === "summary");
    if (summary === undefined || options.summarised) return { indices };
    const { replaces } = this.#entries[summary] as Extract<Entry, { kind: "summary" }>;
    indices = indices.filter((i) => i >= replaces && i !== summary);
    return { indices, summary };
  }

  /** The messages of the next request: the system prompt, then the log with every compaction applied. */
  messages(): Message[] {
    const { indices, summary } = this.live();
    const entries = indices.map((i) => this.#entries[i]);
    const dropped = new Set<string>();
    const abbreviated = new Set<string>();
    const cuts = new Map<string, CutOutput>();
    for (const entry of entries) {
      if (entry.kind !== "compaction") continue;
      entry.droppedOutputs.forEach((id) => dropped.add(id));
      entry.abbreviatedCalls.forEach((id) => abbreviated.add(id));
      for (const cut of entry.cutOutputs ?? []) {
        const earlier = cuts.get(cut.callId);
        if (!earlier || cut.keepChars < earlier.keepChars) cuts.set(cut.callId, cut);
      }
    }
    const out: Message[] = [{ role: "system", content: this.systemPrompt }];
    if (summary !== undefined) {
      const { text } = this.#entries[summary] as Extract<Entry, { kind: "summary" }>;
      out.push({ role: "user", content: `${SUMMARY_PREFIX}\n\n${text}` });
    }
    const results = new Map<string, Extract<Message, { role: "tool" }>>();
    for (const entry of entries) {
      switch (entry.kind) {
        case "user":
          out.push({ role: "user", content: entry.text, ...entry.images && { images: entry.images } });
          break;
        case "assistant":
          out.push(abbreviated.size === 0 ? entry.message : abbreviate(entry.message, abbreviated));
          break;
        case "tool_result": {
          const drop = dropped.has(entry.callId);
          const message: Extract<Message, { role: "tool" }> = {
            role: "tool" as const,
            toolCallId: entry.callId,
            name: entry.name,
            content: drop ? DROPPED_OUTPUT : this.#wrap(entry, cuts.get(entry.callId)),
            isError: entry.isError,
            ...!drop && entry.images && { images: entry.images },
          };
          results.set(entry.callId, message);
          out.push(message);
          break;
        }
        case "reminder": {
          const result = results.get(entry.callId);
          if (result) result.content += `\n\n${entry.text}`;
          else out.push({ role: "user", content: entry.text });
          break;
        }
      }
    }
    return out;
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
