/**
 * List prices of the models tern knows, in US dollars per million tokens, for the cost estimate in the
 * status line and /cost. A model not listed has no estimate (the status line leaves cost out).
 */

/** One model's prices per million tokens; `cachedInput` for prompt tokens served from the cache. */
export interface ModelPrice {
  input: number;
  cachedInput?: number;
  output: number;
}

/** By model name, as sent in the request. Published list prices; check the provider's page for today's. */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  "deepseek-chat": { input: 0.28, cachedInput: 0.028, output: 0.42 },
  "deepseek-reasoner": { input: 0.28, cachedInput: 0.028, output: 0.42 },
  "gpt-4.1": { input: 2, cachedInput: 0.5, output: 8 },
  "gpt-4.1-mini": { input: 0.4, cachedInput: 0.1, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, cachedInput: 0.025, output: 0.4 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, output: 0.6 },
};

/** The prices of `model`, if known. */
export function findPrice(model: string): ModelPrice | undefined {
  return Object.hasOwn(MODEL_PRICES, model) ? MODEL_PRICES[model] : undefined;
}

/** Dollars for token counts at `price`; cached prompt tokens at the cached rate when there is one. */
export function costOf(
  price: ModelPrice,
  usage: { promptTokens: number; completionTokens: number; cachedTokens?: number },
): number {
  const cached = usage.cachedTokens ?? 0;
  const fresh = usage.promptTokens - cached;
  return (fresh * price.input + cached * (price.cachedInput ?? price.input) +
    usage.completionTokens * price.output) /
    1e6;
}
