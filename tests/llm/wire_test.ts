import assert from "node:assert/strict";
import { parseEventData, toFinishReason } from "../../src/llm/wire.ts";
import { LlmError } from "../../src/llm/types.ts";

Deno.test("toFinishReason() maps chat, Anthropic and Responses words onto tern's five", () => {
  const cases: [string, string][] = [
    ["stop", "stop"],
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["tool_use", "tool_calls"],
    ["length", "length"],
    ["max_tokens", "length"],
    ["max_output_tokens", "length"],
    ["content_filter", "content_filter"],
    ["refusal", "content_filter"],
    ["error", "error"],
    [" STOP ", "stop"],
  ];
  for (const [word, expected] of cases) assert.equal(toFinishReason(word, false), expected, word);
});

Deno.test("toFinishReason() falls back on what arrived for an unknown or missing word", () => {
  assert.equal(toFinishReason(undefined, false), "stop");
  assert.equal(toFinishReason(undefined, true), "tool_calls");
  assert.equal(toFinishReason("odd_word", false), "stop");
  assert.equal(toFinishReason("odd_word", true), "tool_calls");
});

Deno.test("parseEventData() parses JSON and names the source of data that is not JSON", () => {
  assert.deepEqual(parseEventData('{"a":1}', "S", false), { a: 1 });
  assert.throws(() => parseEventData("x".repeat(200), "S", true), (error: unknown) => {
    assert.ok(error instanceof LlmError);
    assert.equal(error.kind, "bad_response");
    assert.equal(error.partialOutput, true);
    assert.ok(error.message.startsWith("S sent a stream event that is not JSON: xxx"));
    assert.ok(error.message.endsWith("…"));
    return true;
  });
});
