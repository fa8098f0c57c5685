import { assert, assertEquals, assertStrictEquals, assertThrows } from "../support/assert.ts";
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
  for (const [word, expected] of cases) assertStrictEquals(toFinishReason(word, false), expected, word);
});

Deno.test("toFinishReason() falls back on what arrived for an unknown or missing word", () => {
  assertStrictEquals(toFinishReason(undefined, false), "stop");
  assertStrictEquals(toFinishReason(undefined, true), "tool_calls");
  assertStrictEquals(toFinishReason("odd_word", false), "stop");
  assertStrictEquals(toFinishReason("odd_word", true), "tool_calls");
});

Deno.test("parseEventData() parses JSON and names the source of data that is not JSON", () => {
  assertEquals(parseEventData('{"a":1}', "S", false), { a: 1 });
  assert(((error: unknown) => {
    assert(error instanceof LlmError);
    assertStrictEquals(error.kind, "bad_response");
    assertStrictEquals(error.partialOutput, true);
    assert(error.message.startsWith("S sent a stream event that is not JSON: xxx"));
    assert(error.message.endsWith("…"));
    return true;
  })(assertThrows(() => parseEventData("x".repeat(200), "S", true))));
});
