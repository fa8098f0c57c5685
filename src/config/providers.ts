/** Provider presets: where each API lives, its wire format, the variable holding its key, its model. */

/**
 * The wire format a provider speaks: "chat" (OpenAI-compatible chat completions), "responses" (OpenAI
 * Responses), "anthropic" (Anthropic Messages). The same words as `WireApi` in src/llm/types.ts; config
 * imports nothing of the layers above it, so the list is written twice.
 */
export type ProviderApi = "chat" | "responses" | "anthropic";

/** One endpoint tern knows by name. */
export interface ProviderPreset {
  /** The name used with `--provider` and `TERN_PROVIDER`. */
  name: string;
  /** A human name for banners and notices. */
  label: string;
  /** The base URL that the wire's path (e.g. `/chat/completions`) and `/models` hang off. */
  baseUrl: string;
  /** The wire format spoken at `baseUrl`. */
  api: ProviderApi;
  /** The environment variable holding the API key; null when the server needs none (local servers). */
  keyEnv: string | null;
  /** The model used when neither `--model` nor `TERN_MODEL` is set. */
  defaultModel: string;
  /** The default model's context window in tokens (budgets and compaction start from it). */
  contextWindow: number;
}

/**
 * Every known preset; the first is the default. Zhipu's key variable is `ZHIPUAI_API_KEY` (the name its
 * own SDK reads); `TERN_API_KEY` works for every provider.
 */
export const PROVIDERS: readonly ProviderPreset[] = [
  {
    name: "deepseek",
    label: "DeepSeek",
    baseUrl: "https://api.deepseek.com",
    api: "chat",
    keyEnv: "DEEPSEEK_API_KEY",
    defaultModel: "deepseek-chat",
    contextWindow: 128_000,
  },
  {
    name: "openai",
    label: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    api: "chat",
    keyEnv: "OPENAI_API_KEY",
    defaultModel: "gpt-4.1-mini",
    contextWindow: 1_047_576,
  },
  {
    name: "glm",
    label: "Zhipu GLM",
    baseUrl: "https://open.bigmodel.cn/api/paas/v4",
    api: "chat",
    keyEnv: "ZHIPUAI_API_KEY",
    defaultModel: "glm-4.6",
    contextWindow: 200_000,
  },
  {
    name: "kimi",
    label: "Moonshot Kimi",
    baseUrl: "https://api.moonshot.ai/v1",
    api: "chat",
    keyEnv: "MOONSHOT_API_KEY",
    defaultModel: "kimi-k2-0905-preview",
    contextWindow: 262_144,
  },
  {
    name: "qwen",
    label: "Qwen (DashScope)",
    baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
    api: "chat",
    keyEnv: "DASHSCOPE_API_KEY",
    defaultModel: "qwen3-coder-plus",
    contextWindow: 1_000_000,
  },
  {
    name: "openrouter",
    label: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    api: "chat",
    keyEnv: "OPENROUTER_API_KEY",
    defaultModel: "qwen/qwen3-coder",
    contextWindow: 262_144,
  },
  {
    name: "ollama",
    label: "Ollama",
    baseUrl: "http://127.0.0.1:11434/v1",
    api: "chat",
    keyEnv: null,
    defaultModel: "qwen2.5-coder",
    contextWindow: 32_768,
  },
  {
    name: "llamacpp",
    label: "llama.cpp",
    baseUrl: "http://127.0.0.1:8080/v1",
    api: "chat",
    keyEnv: null,
    // llama.cpp's server answers with whatever model it loaded, whatever name is sent.
    defaultModel: "default",
    contextWindow: 32_768,
  },
];

/** The preset used when no provider is chosen. */
export const DEFAULT_PROVIDER: ProviderPreset = PROVIDERS[0];

/** The preset named `name` (case and surrounding spaces ignored), or undefined when there is none. */
export function findProvider(name: string): ProviderPreset | undefined {
  const wanted = name.trim().toLowerCase();
  return PROVIDERS.find((preset) => preset.name === wanted);
}

/** The local presets probed, in order of preference, when no API key is set. */
export const LOCAL_PROVIDERS: readonly ProviderPreset[] = PROVIDERS.filter((preset) =>
  preset.keyEnv === null
);
