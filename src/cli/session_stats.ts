/**
 * What the session has used, from the loop's usage events: the status line after each task, /cost and
 * /context read it. Context used is the last request's prompt plus its answer: what the next request resends.
 */
import type { AgentEvent } from "../agent/events.ts";
import type { Usage } from "../llm/types.ts";
import { costOf, type ModelPrice } from "../config/prices.ts";

/** The model facts the figures are measured against. */
export interface ModelInfo {
  model: string;
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
export class SessionStats {
  total: Usage = { ...ZERO };
  last: Usage | undefined;
  calls = 0;
  cost = 0;
  #info: ModelInfo;

  constructor(info: ModelInfo) {
    this.#info = info;
  }

  /** The model the figures are for. */
  get info(): ModelInfo {
    return this.#info;
  }

  /** Counts one event (only usage events matter). */
  handle(event: AgentEvent): void {
    if (event.type !== "usage") return;
    const u = event.usage;
    this.last = u;
    this.calls++;
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

  /** Forgets everything (a new conversation). */
  reset(): void {
    this.total = { ...ZERO };
    this.last = undefined;
    this.calls = 0;
    this.cost = 0;
  }
}

/** "12.3k" style counts. */
export function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Dollars with enough digits to show small sums. */
export function dollars(value: number): string {
  return `$${value < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;
}

/** Cache hits as a share of the session's prompt tokens, or undefined before any. */
export function cacheHitPercent(stats: SessionStats): number | undefined {
  if (stats.total.promptTokens === 0) return undefined;
  return Math.round(((stats.total.cachedTokens ?? 0) / stats.total.promptTokens) * 100);
}

/** The line after each task: model · context % · tokens in/out · cache-hit % · cost. */
export function statusLine(stats: SessionStats): string {
  const { model, contextWindow, price } = stats.info;
  const parts = [model];
  if (contextWindow) {
    const percent = Math.min(100, Math.round((stats.contextTokens / contextWindow) * 100));
    parts.push(`context ${percent}% (${compact(stats.contextTokens)}/${compact(contextWindow)})`);
  }
  parts.push(`${compact(stats.total.promptTokens)} in · ${compact(stats.total.completionTokens)} out`);
  const hit = cacheHitPercent(stats);
  if (hit !== undefined) parts.push(`cache ${hit}%`);
  if (price) parts.push(dollars(stats.cost));
  return parts.join(" · ");
}
