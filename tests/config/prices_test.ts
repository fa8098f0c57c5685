import { assertEquals } from "../support/assert.ts";
import { costUsd, priceOf, PRICES } from "../../src/config/prices.ts";

Deno.test("priceOf() finds a model by its name, and a dated name by its base name", () => {
  assertEquals(priceOf("deepseek-chat"), PRICES["deepseek-chat"]);
  assertEquals(priceOf("claude-sonnet-4-5-20250929"), PRICES["claude-sonnet-4-5"]);
  // The longest base wins: gpt-4.1-mini is not priced as gpt-4.1.
  assertEquals(priceOf("gpt-4.1-mini-2025-04-14"), PRICES["gpt-4.1-mini"]);
  assertEquals(priceOf("qwen2.5-coder"), undefined);
  assertEquals(priceOf("gpt-4.10"), undefined);
});

Deno.test("costUsd() prices fresh, cached and output tokens apart; an unknown model costs null", () => {
  const tokens = { promptTokens: 1_000_000, cachedTokens: 600_000, completionTokens: 100_000 };
  // deepseek-chat: 400k fresh at 0.28, 600k cached at 0.028, 100k out at 0.42 per million.
  assertEquals(Number(costUsd("deepseek-chat", tokens)!.toFixed(6)), 0.112 + 0.0168 + 0.042);
  assertEquals(costUsd("deepseek-chat", { promptTokens: 0, completionTokens: 0 }), 0);
  assertEquals(costUsd("my-local-model", tokens), null);
});
