/** The REPL's words for what a session has used: the status line, and the figures /cost prints. */
import type { SessionUsage } from "../../agent/usage.ts";
import type { Usage } from "../../llm/types.ts";
import { findProvider } from "../../config/providers.ts";

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
export function cacheHitPercent(stats: SessionUsage): number | undefined {
  if (stats.total.promptTokens === 0) return undefined;
  return Math.round(((stats.total.cachedTokens ?? 0) / stats.total.promptTokens) * 100);
}

/** True when the model's price is unknown and not plainly zero (a local server's presets are free). */
export function priceUnknown(stats: SessionUsage): boolean {
  const provider = stats.info.provider === undefined ? undefined : findProvider(stats.info.provider);
  return !stats.info.price && provider?.keyEnv !== null;
}

/**
 * The line after each task: model · context % · tokens in/out so far · cache-hit % · cost (or "unknown
 * price"); `task`, the last task's usage, is added when the session ran others before it.
 */
export function statusLine(stats: SessionUsage, task?: Usage): string {
  const { model, contextWindow, price } = stats.info;
  const parts = [model];
  if (contextWindow) {
    const percent = Math.min(100, Math.round((stats.contextTokens / contextWindow) * 100));
    parts.push(`context ${percent}% (${compact(stats.contextTokens)}/${compact(contextWindow)})`);
  }
  parts.push(`${compact(stats.total.promptTokens)} in · ${compact(stats.total.completionTokens)} out`);
  if (task && task.promptTokens < stats.total.promptTokens) {
    parts.push(`this task ${compact(task.promptTokens)} in · ${compact(task.completionTokens)} out`);
  }
  const hit = cacheHitPercent(stats);
  if (hit !== undefined) parts.push(`cache ${hit}%`);
  if (price) parts.push(dollars(stats.cost));
  else if (priceUnknown(stats)) parts.push("unknown price");
  return parts.join(" · ");
}
