/**
 * Context windows of known models, in tokens. A provider serves several models with different windows, so
 * the window follows the model; the provider's default applies to a model not listed here.
 */

/** Model-name prefixes (lower case) and their windows; the longest matching prefix wins. */
const KNOWN: Record<string, number> = {
  "deepseek-chat": 128_000,
  "deepseek-reasoner": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-4o": 128_000,
  "gpt-5": 400_000,
  "o3": 200_000,
  "o4-mini": 200_000,
  "glm-4.5": 128_000,
  "glm-4.6": 200_000,
  "kimi-k2": 262_144,
  "moonshot-v1-8k": 8_192,
  "moonshot-v1-32k": 32_768,
  "moonshot-v1-128k": 131_072,
  "qwen3-coder": 262_144,
  "qwen-max": 32_768,
  "qwen-plus": 131_072,
  "claude-": 200_000,
  "gemini-2.5": 1_048_576,
};

/** The window of `model` (an OpenRouter-style `vendor/model` name too), or undefined when not known. */
export function knownContextWindow(model: string): number | undefined {
  const name = model.toLowerCase().split("/").at(-1)!;
  let best: string | undefined;
  for (const prefix of Object.keys(KNOWN)) {
    if (name.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : KNOWN[best];
}
