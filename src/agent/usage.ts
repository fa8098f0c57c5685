/**
 * What a session has used, from the loop's usage events: the status line after each task, /cost and /context
 * read it. Context used is the last request's prompt plus its answer: what the next request resends. Each
 * call is priced at the model that made it: a switch changes `info` for the calls after it.
 */
import type { AgentEvent } from "./events.ts";
import type { Usage } from "../llm/types.ts";
import { costOf, findPrice, type ModelPrice } from "../config/prices.ts";
import type { Entry } from "./log/conversation.ts";

/** The model facts the figures are measured against. */
export interface UsageModel {
  model: string;
  /** The preset's name, or "custom" for a base URL the user gave. */
  provider?: string;
  contextWindow?: number;
  price?: ModelPrice;
}

const ZERO: Usage = {
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  cachedTokens: 0,
  reasoningTokens: 0,
};

/** Usage totals for the session (since start or /clear). */
export class SessionUsage {
  total: Usage = { ...ZERO };
  last: Usage | undefined;
  calls = 0;
  cost = 0;
  #info: UsageModel;

  constructor(info: UsageModel) {
    this.#info = info;
  }

  /** The model the figures are for. */
  get info(): UsageModel {
    return this.#info;
  }

  /** The model answering from now on (a switch): later calls are priced and measured against it. */
  set info(info: UsageModel) {
    this.#info = info;
  }

  /** Counts one event (only usage events matter; a sub-agent's count in the totals, not in the context). */
  handle(event: AgentEvent): void {
    if (event.type === "child_event" && event.event.type === "usage") return this.#add(event.event.usage);
    if (event.type !== "usage") return;
    this.last = event.usage;
    this.calls++;
    this.#add(event.usage);
  }

  #add(u: Usage): void {
    this.total = {
      promptTokens: this.total.promptTokens + u.promptTokens,
      completionTokens: this.total.completionTokens + u.completionTokens,
      totalTokens: this.total.totalTokens + u.totalTokens,
      cachedTokens: (this.total.cachedTokens ?? 0) + (u.cachedTokens ?? 0),
      reasoningTokens: (this.total.reasoningTokens ?? 0) + (u.reasoningTokens ?? 0),
    };
    if (this.#info.price) this.cost += costOf(this.#info.price, u);
  }

  /** Tokens the next request starts from. */
  get contextTokens(): number {
    return this.last ? this.last.promptTokens + this.last.completionTokens : 0;
  }

  /** The totals of a resumed conversation, from its usage entries, each call priced at the model that made it. */
  restore(entries: readonly Entry[]): void {
    this.reset();
    for (const entry of entries) {
      if (entry.kind !== "usage") continue;
      const info = this.#info;
      // The model answering now is priced as the session prices it (unknown on a guessed custom endpoint).
      this.#info = { ...info, price: entry.model === info.model ? info.price : findPrice(entry.model) };
      this.handle({ type: "usage", usage: entry.usage, total: entry.usage });
      this.#info = info;
    }
  }

  /** Forgets everything (a new conversation). */
  reset(): void {
    this.total = { ...ZERO };
    this.last = undefined;
    this.calls = 0;
    this.cost = 0;
  }
}
