import { assertEquals } from "../support/assert.ts";
import { acceptsImages } from "../../src/config/model_images.ts";

Deno.test("acceptsImages() knows vision models, text-only models, and falls back on the provider", () => {
  const ask = (model: string, provider = "custom", api = "chat", setting?: string) =>
    acceptsImages({ model, provider, api, setting });
  assertEquals(
    [
      ask("claude-sonnet-4-5", "anthropic", "anthropic"),
      ask("gpt-4o-mini", "openai", "responses"),
      ask("openai/gpt-4.1"),
      ask("qwen2.5-vl-72b-instruct", "qwen"),
      ask("llava:13b", "ollama"),
      ask("glm-4.5v", "glm"),
      ask("gemini-2.5-pro", "gemini"),
    ],
    [true, true, true, true, true, true, true],
  );
  assertEquals(
    [
      ask("deepseek-chat", "deepseek"),
      ask("deepseek-chat", "custom", "anthropic"),
      ask("kimi-k2-0905-preview", "kimi"),
      ask("glm-4.6", "glm"),
      ask("qwen3-coder-plus", "qwen"),
      ask("my-local-model", "ollama"),
    ],
    [false, false, false, false, false, false],
  );
  // Unknown names: the provider or the Anthropic wire decide; TERN_IMAGES wins over everything.
  assertEquals(
    [ask("future-model", "openai", "responses"), ask("proxy-model", "custom", "anthropic"), ask("x", "vllm")],
    [true, true, false],
  );
  assertEquals([
    ask("my-local-model", "ollama", "chat", "on"),
    ask("claude-opus-4", "anthropic", "anthropic", "0"),
  ], [
    true,
    false,
  ]);
});
