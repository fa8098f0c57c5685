import { assert, assertEquals, assertStrictEquals } from "../support/assert.ts";
import { DEFAULT_PROVIDER, findProvider, LOCAL_PROVIDERS, PROVIDERS } from "../../src/config/providers.ts";

Deno.test("findProvider() finds every preset by its name", () => {
  for (const preset of PROVIDERS) assertStrictEquals(findProvider(preset.name), preset);
});

Deno.test("findProvider() ignores case and surrounding spaces", () => {
  assertStrictEquals(findProvider("  DeepSeek "), findProvider("deepseek"));
});

Deno.test("findProvider() returns undefined for an unknown name", () => {
  assertStrictEquals(findProvider("nosuch"), undefined);
  assertStrictEquals(findProvider(""), undefined);
});

Deno.test("PROVIDERS have unique names, http(s) base URLs without a trailing slash and a context window", () => {
  const names = PROVIDERS.map((preset) => preset.name);
  assertStrictEquals(new Set(names).size, names.length);
  for (const preset of PROVIDERS) {
    assert(/^https?:\/\/[^/]+/.test(preset.baseUrl), preset.name);
    assert(!preset.baseUrl.endsWith("/"), preset.name);
    assert(preset.defaultModel !== "", preset.name);
    assert(Number.isInteger(preset.contextWindow) && preset.contextWindow >= 8_192, preset.name);
  }
});

Deno.test("the default provider is DeepSeek, keyed by DEEPSEEK_API_KEY", () => {
  assertEquals(DEFAULT_PROVIDER, {
    name: "deepseek",
    label: "DeepSeek",
    baseUrl: "https://api.deepseek.com",
    api: "chat",
    keyEnv: "DEEPSEEK_API_KEY",
    defaultModel: "deepseek-chat",
    contextWindow: 128_000,
  });
});

Deno.test("every hosted provider names its key variable and the local ones need none", () => {
  const keys = Object.fromEntries(PROVIDERS.map((preset) => [preset.name, preset.keyEnv]));
  assertEquals(keys, {
    deepseek: "DEEPSEEK_API_KEY",
    openai: "OPENAI_API_KEY",
    anthropic: "ANTHROPIC_API_KEY",
    gemini: "GEMINI_API_KEY",
    groq: "GROQ_API_KEY",
    mistral: "MISTRAL_API_KEY",
    xai: "XAI_API_KEY",
    glm: "ZHIPUAI_API_KEY",
    kimi: "MOONSHOT_API_KEY",
    qwen: "DASHSCOPE_API_KEY",
    openrouter: "OPENROUTER_API_KEY",
    ollama: null,
    llamacpp: null,
    lmstudio: null,
    vllm: null,
  });
});

Deno.test("LOCAL_PROVIDERS are Ollama, llama.cpp, LM Studio and vLLM on 127.0.0.1", () => {
  assertEquals(LOCAL_PROVIDERS.map((preset) => [preset.name, preset.baseUrl]), [
    ["ollama", "http://127.0.0.1:11434/v1"],
    ["llamacpp", "http://127.0.0.1:8080/v1"],
    ["lmstudio", "http://127.0.0.1:1234/v1"],
    ["vllm", "http://127.0.0.1:8000/v1"],
  ]);
});

Deno.test("openai speaks Responses, anthropic speaks Messages, every other preset chat completions", () => {
  const wires = Object.fromEntries(PROVIDERS.map((preset) => [preset.name, preset.api]));
  assertStrictEquals(wires.openai, "responses");
  assertStrictEquals(wires.anthropic, "anthropic");
  const others = PROVIDERS.filter((p) => p.name !== "openai" && p.name !== "anthropic");
  assertEquals(others.map((p) => p.api), others.map(() => "chat"));
});
