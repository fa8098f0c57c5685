/** The words of a task's progress and end: usage figures, retries, and why an answer is partial. */
import type { AgentEvent } from "../../agent/events.ts";
import type { Usage } from "../../llm/types.ts";

/** "tokens: 1,234 in (1,000 cached) · 56 out (20 reasoning)". */
export function formatUsage(usage: Usage): string {
  const n = thousands;
  const cached = usage.cachedTokens ? ` (${n(usage.cachedTokens)} cached)` : "";
  const reasoning = usage.reasoningTokens ? ` (${n(usage.reasoningTokens)} reasoning)` : "";
  return `tokens: ${n(usage.promptTokens)} in${cached} · ${n(usage.completionTokens)} out${reasoning}`;
}

const PARTIAL_REASONS: Record<string, string> = {
  length: "the answer was cut off at the model's output limit; ask it to continue",
  runaway: "the model kept repeating itself, so tern stopped it and asked for a report",
  max_turns: "the --max-turns limit was reached",
  token_budget: "the --token-budget limit was reached",
  time_budget: "the --time-limit was reached",
  context_full: "the conversation no longer fits the model's context window",
};

/** The label for an answer that is not the whole story: "⚠ partial: <why>". */
export function partialNote(reason: string): string {
  return `⚠ partial: ${PARTIAL_REASONS[reason] ?? `stopped early (${reason})`}`;
}

/** The retry line: why, how long, which attempt; an answer cut off halfway is said to be discarded. */
export function retryWords(event: Extract<AgentEvent, { type: "retry" }>): string {
  const seconds = `${(event.delayMs / 1000).toFixed(1)} s`;
  const attempt = `attempt ${event.attempt}/${event.maxAttempts}`;
  if (event.discarded) {
    return `⚠ the answer above broke off (${event.reason}); it is discarded: retrying in ${seconds}, ${attempt}`;
  }
  return `retrying in ${seconds} (${event.reason}), ${attempt}`;
}

/**
 * An integer with thousands separators, "1,234,567". Not toLocaleString: that maps the runtime's locale data
 * (about 6 MB of memory and a few ms) into every run that prints one usage line.
 */
export function thousands(value: number): string {
  const [whole, fraction] = String(value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
