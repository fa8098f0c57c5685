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
  /**
   * Chat wire only: whether an assistant message with tool calls carries `reasoning_content` back: "never"
   * (Groq, Mistral and Gemini reject the unknown field with HTTP 400) or "auto" (the default: once the
   * conversation holds reasoning, as DeepSeek's and Kimi's thinking modes need; a 400 naming the field
   * settles the rule for the rest of the session, so a thinking step with empty reasoning costs one retry).
   * "always" is for a server known to want the field from the first step.
   */
  reasoningEcho?: ReasoningEcho;
}

/** How the chat wire sends reasoning back on tool-call messages. */
export type ReasoningEcho = "always" | "auto" | "never";

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
    // Reasoning models keep their (encrypted) reasoning across tool calls only over Responses.
    api: "responses",
    keyEnv: "OPENAI_API_KEY",
    defaultModel: "gpt-5-mini",
    contextWindow: 400_000,
  },
  {
    name: "anthropic",
    label: "Anthropic",
    // The Messages path is /v1/messages under this root, as ANTHROPIC_BASE_URL is usually written.
    baseUrl: "https://api.anthropic.com",
    api: "anthropic",
    keyEnv: "ANTHROPIC_API_KEY",
    defaultModel: "claude-sonnet-4-5",
    contextWindow: 200_000,
  },
  {
    name: "gemini",
    label: "Google Gemini",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
    api: "chat",
    keyEnv: "GEMINI_API_KEY",
    defaultModel: "gemini-2.5-flash",
    contextWindow: 1_048_576,
    reasoningEcho: "never",
  },
  {
    name: "groq",
    label: "Groq",
    baseUrl: "https://api.groq.com/openai/v1",
    api: "chat",
    keyEnv: "GROQ_API_KEY",
    defaultModel: "openai/gpt-oss-120b",
    contextWindow: 131_072,
    reasoningEcho: "never",
  },
  {
    name: "mistral",
    label: "Mistral",
    baseUrl: "https://api.mistral.ai/v1",
    api: "chat",
    keyEnv: "MISTRAL_API_KEY",
    defaultModel: "devstral-medium-latest",
    contextWindow: 128_000,
    reasoningEcho: "never",
  },
  {
    name: "xai",
    label: "xAI",
    baseUrl: "https://api.x.ai/v1",
    api: "chat",
    keyEnv: "XAI_API_KEY",
    defaultModel: "grok-code-fast-1",
    contextWindow: 256_000,
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
  {
    name: "lmstudio",
    label: "LM Studio",
    baseUrl: "http://127.0.0.1:1234/v1",
    api: "chat",
    keyEnv: null,
    // The local presets take the first model the server lists (see probeLocalServers).
    defaultModel: "default",
    contextWindow: 32_768,
  },
  {
    name: "vllm",
    label: "vLLM",
    baseUrl: "http://127.0.0.1:8000/v1",
    api: "chat",
    keyEnv: null,
    defaultModel: "default",
    contextWindow: 32_768,
  },
];

/** The wire formats, for `--api` and `TERN_API`. */
export const PROVIDER_APIS: readonly ProviderApi[] = ["chat", "responses", "anthropic"];

/** The label shown for a base URL the user gave instead of the preset's. */
export const CUSTOM_LABEL = "custom";

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

/** tern's own key variables: `TERN_API_KEY` and every provider's. A project's config never gets their values. */
export const KEY_VARIABLES: readonly string[] = [
  "TERN_API_KEY",
  ...new Set(PROVIDERS.flatMap((preset) => preset.keyEnv ? [preset.keyEnv] : [])),
];
