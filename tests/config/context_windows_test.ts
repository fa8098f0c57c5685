import { assertEquals } from "../support/assert.ts";
import { knownContextWindow } from "../../src/config/context_windows.ts";

Deno.test("knownContextWindow() follows the model, longest prefix first, vendor prefixes ignored", () => {
  assertEquals(knownContextWindow("deepseek-chat"), 128_000);
  assertEquals(knownContextWindow("moonshot-v1-8k"), 8_192);
  assertEquals(knownContextWindow("moonshotai/kimi-k2-0905"), 262_144);
  assertEquals(knownContextWindow("GPT-4.1-mini"), 1_047_576);
  assertEquals(knownContextWindow("my-local-model"), undefined);
});
