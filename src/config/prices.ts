/**
 * What known models cost, in US dollars per million tokens, as their providers publish it (standard tier,
 * no batch discount). A model missing here shows tokens only: tern never guesses a price. Kept apart from
 * the presets in providers.ts: a price belongs to a model, and several presets serve the same model.
 */

/** Dollars per million tokens: prompt tokens read fresh, prompt tokens read from the cache, output tokens. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

/** Published prices by model name; a dated name (`claude-sonnet-4-5-20250929`) finds its base name. */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  "deepseek-chat": { input: 0.28, cachedInput: 0.028, output: 0.42 },
  "deepseek-reasoner": { input: 0.28, cachedInput: 0.028, output: 0.42 },
  "gpt-4.1": { input: 2, cachedInput: 0.5, output: 8 },
  "gpt-4.1-mini": { input: 0.4, cachedInput: 0.1, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, cachedInput: 0.025, output: 0.4 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, output: 0.6 },
  "gpt-5": { input: 1.25, cachedInput: 0.125, output: 10 },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, output: 2 },
  "claude-sonnet-4-5": { input: 3, cachedInput: 0.3, output: 15 },
  "claude-haiku-4-5": { input: 1, cachedInput: 0.1, output: 5 },
  "claude-opus-4-1": { input: 15, cachedInput: 1.5, output: 75 },
  "glm-4.6": { input: 0.6, cachedInput: 0.11, output: 2.2 },
  "kimi-k2-0905-preview": { input: 0.6, cachedInput: 0.15, output: 2.5 },
};

/** The price of `model`: its own entry, else the longest name it extends with "-…"; undefined if unknown. */
export function priceOf(model: string): ModelPrice | undefined {
  const name = model.trim().toLowerCase();
  if (PRICES[name]) return PRICES[name];
  const base = Object.keys(PRICES).filter((key) => name.startsWith(`${key}-`))
    .sort((a, b) => b.length - a.length)[0];
  return base === undefined ? undefined : PRICES[base];
}

/** Token counts to price: prompt tokens include the cached ones, as chat completions reports them. */
export interface TokenCounts {
  promptTokens: number;
  cachedTokens?: number;
  completionTokens: number;
}

/** What `tokens` cost on `model` in US dollars, or null when the model's price is not known. */
export function costUsd(model: string, tokens: TokenCounts): number | null {
  const price = priceOf(model);
  return price === undefined ? null : costOf(price, tokens);
}

/** The prices of `model`, if known (the status line's name for `priceOf`). */
export function findPrice(model: string): ModelPrice | undefined {
  return priceOf(model);
}

/** Dollars for token counts at a known `price`; cached prompt tokens at the cached rate. */
export function costOf(
  price: ModelPrice,
  usage: { promptTokens: number; completionTokens: number; cachedTokens?: number },
): number {
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  return ((usage.promptTokens - cached) * price.input + cached * price.cachedInput +
    usage.completionTokens * price.output) / 1_000_000;
}
