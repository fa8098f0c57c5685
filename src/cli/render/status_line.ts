/** The REPL's words for what a session has used: the status line, and the figures /cost prints. */
import type { SessionUsage } from "../../agent/session_usage.ts";

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

/** The line after each task: model · context % · tokens in/out · cache-hit % · cost. */
export function statusLine(stats: SessionUsage): string {
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
