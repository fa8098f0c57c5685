/** Expected turns of the recorded OpenAI Responses fixtures, read off the files (script plus eyeballing). */
import type { Expected } from "./_chat_fixture_table.ts";

/** A row plus what must round-trip: the ids of the reasoning items kept in providerData. */
export interface ResponsesExpected extends Expected {
  rawFinishReason?: string;
  reasoningItems?: string[];
}

// Never computed by the code under test: a throwaway Python script printed the values, a human checked them.
// A file holding several responses back to back has one row per response, in order.
/** One row per response in the `*.chunks.txt` files of tests/fixtures/streams/responses/. */
export const RESPONSES_TABLE: ResponsesExpected[] = [
  {
    file: "deepseek-v4-flash-reasoning-function-call.chunks.txt",
    model: "deepseek-v4-flash",
    finishReason: "tool_calls",
    text: "",
    reasoning: { length: 84, start: "The user asks about weather in", end: " weather tool. Let me call it." },
    toolCalls: [{
      "id": "call_00_N9BNUr3rAx4twPOHpyRN4076",
      "name": "weather",
      "arguments": '{"location": "San Francisco"}',
    }],
    usage: {
      "promptTokens": 296,
      "completionTokens": 64,
      "totalTokens": 360,
      "cachedTokens": 256,
      "reasoningTokens": 20,
    },
    reasoningItems: ["2745e232-0a17-4f92-8d72-122b2683de48"],
  },
  {
    file: "lmstudio-glm-4.7-flash-reasoning-function-call.chunks.txt",
    model: "zai-org/glm-4.7-flash",
    finishReason: "tool_calls",
    text: { length: 67, start: "I'll get the current weather i", end: "ion for San Francisco for you." },
    reasoning: {
      length: 242,
      start: "The user is asking for the wea",
      end: "ion to make the function call.",
    },
    toolCalls: [{
      "id": "call_2025306790300011",
      "name": "weather",
      "arguments": '{"location":"San Francisco"}',
    }],
    usage: {
      "promptTokens": 182,
      "completionTokens": 61,
      "totalTokens": 243,
      "cachedTokens": 2,
      "reasoningTokens": 48,
    },
    reasoningItems: ["rs_3yo6zy4vu4hq6iegqwhn1"],
  },
  {
    file: "open-responses-incomplete-max-output-tokens.chunks.txt",
    finishReason: "length",
    rawFinishReason: "max_output_tokens",
    text: "",
    reasoning: "",
    toolCalls: [],
    usage: {
      "promptTokens": 1,
      "completionTokens": 1,
      "totalTokens": 2,
      "cachedTokens": 0,
      "reasoningTokens": 1,
    },
  },
  {
    file: "openai-custom-tool-call.chunks.txt",
    model: "gpt-5.2-codex",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{
      "id": "call_custom_sql_001",
      "name": "write_sql",
      "arguments": "SELECT * FROM users WHERE age > 25",
    }],
    usage: {
      "promptTokens": 50,
      "completionTokens": 20,
      "totalTokens": 70,
      "cachedTokens": 0,
      "reasoningTokens": 0,
    },
  },
  {
    file: "openai-error-insufficient-quota.chunks.txt",
    error: {
      kind: "stream_error",
      includes: "You exceeded your current quota, please ",
      partialOutput: false,
    },
  },
  {
    file: "openai-gpt-5.1-apply-patch-call.chunks.txt",
    model: "gpt-5.1-2025-11-13",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{
      "id": "call_kA46f91ZwocQyMCKyyZqRyC5",
      "name": "apply_patch",
      "arguments":
        '{"type":"create_file","diff":"+## Shopping Checklist\\n+\\n+- [ ] Milk\\n+- [ ] Bread\\n+- [ ] Eggs\\n+- [ ] Fresh fruit\\n+- [ ] Coffee\\n","path":"shopping-checklist.md"}',
    }],
    usage: {
      "promptTokens": 642,
      "completionTokens": 67,
      "totalTokens": 709,
      "cachedTokens": 0,
      "reasoningTokens": 0,
    },
  },
  {
    file: "openai-gpt-5.1-codex-max-reasoning-function-calls.chunks.txt",
    model: "gpt-5.1-codex-max",
    finishReason: "tool_calls",
    text: "",
    reasoning: {
      length: 163,
      start: "**Calculating step-by-step usi",
      end: ", reporting the final product.",
    },
    toolCalls: [{
      "id": "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
      "name": "calculator",
      "arguments": '{"a":12,"b":7,"op":"add"}',
    }],
    usage: {
      "promptTokens": 134,
      "completionTokens": 28,
      "totalTokens": 162,
      "cachedTokens": 0,
      "reasoningTokens": 0,
    },
    reasoningItems: ["rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9"],
  },
  {
    file: "openai-gpt-5.1-codex-max-reasoning-function-calls.chunks.txt",
    model: "gpt-5.1-codex-max",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{
      "id": "call_Q6pW65MUgW9vF59BmItYGos3",
      "name": "calculator",
      "arguments": '{"a":19,"b":3,"op":"multiply"}',
    }],
    usage: {
      "promptTokens": 221,
      "completionTokens": 26,
      "totalTokens": 247,
      "cachedTokens": 0,
      "reasoningTokens": 0,
    },
  },
  {
    file: "openai-gpt-5.1-codex-max-reasoning-function-calls.chunks.txt",
    model: "gpt-5.1-codex-max",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{
      "id": "call_Zl5vIMnD7dVAjgU6FkhmiCZh",
      "name": "calculator",
      "arguments": '{"a":57,"b":10,"op":"multiply"}',
    }],
    usage: {
      "promptTokens": 260,
      "completionTokens": 26,
      "totalTokens": 286,
      "cachedTokens": 0,
      "reasoningTokens": 0,
    },
  },
  {
    file: "openai-gpt-5.1-codex-max-reasoning-function-calls.chunks.txt",
    model: "gpt-5.1-codex-max",
    finishReason: "stop",
    text: "The final result is **570**.",
    reasoning: "",
    toolCalls: [],
    usage: {
      "promptTokens": 299,
      "completionTokens": 12,
      "totalTokens": 311,
      "cachedTokens": 0,
      "reasoningTokens": 0,
    },
  },
  {
    file: "openai-gpt-5.1-function-call.chunks.txt",
    model: "gpt-5.1-2025-11-13",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{
      "id": "call_2FQdm3Br7Qb35YUBSkDR7kue",
      "name": "get_weather",
      "arguments": '{"city":"Beijing"}',
    }],
    usage: {
      "promptTokens": 45,
      "completionTokens": 25,
      "totalTokens": 70,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
      "reasoningTokens": 0,
    },
  },
  {
    file: "openai-parallel-wrapper-function-call.chunks.txt",
    model: "gpt-5.4",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{ "id": "call_parallel_0", "name": "weather", "arguments": '{"location":"San Francisco"}' }, {
      "id": "call_parallel_1",
      "name": "cityAttractions",
      "arguments": '{"city":"Rome"}',
    }],
    usage: {
      "promptTokens": 34,
      "completionTokens": 28,
      "totalTokens": 62,
      "cachedTokens": 0,
      "reasoningTokens": 0,
    },
  },
  {
    file: "openai-response-failed-only.chunks.txt",
    error: {
      kind: "stream_error",
      includes: "Request too large for gpt-4o-mini in org",
      partialOutput: false,
    },
  },
  {
    file: "xai-grok-3-mini-reasoning-summary-incomplete.chunks.txt",
    model: "grok-3-mini-high",
    finishReason: "length",
    rawFinishReason: "REASON_MAX_LEN",
    text: { length: 1515, start: "The sky appears blue during th", end: " like red and orange, which is" },
    reasoning: {
      length: 1865,
      start: 'First, the user asked: "Explai',
      end: "back and offer more if needed.",
    },
    toolCalls: [],
    usage: {
      "promptTokens": 24,
      "completionTokens": 678,
      "totalTokens": 702,
      "cachedTokens": 12,
      "reasoningTokens": 378,
    },
    reasoningItems: ["rs_151d997e-77dc-ca4a-3b0f-13fee416d63c_us-east-1"],
  },
  {
    file: "xai-grok-4-fast-function-call-no-deltas.chunks.txt",
    model: "grok-4-fast-reasoning",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{
      "id": "call_25342192",
      "name": "getWeather",
      "arguments": '{"location":"San Francisco","unit":"fahrenheit"}',
    }],
    usage: {
      "promptTokens": 391,
      "completionTokens": 235,
      "totalTokens": 626,
      "cachedTokens": 390,
      "reasoningTokens": 198,
    },
  },
  {
    file: "xai-grok-4.3-reasoning-summary-text.chunks.txt",
    model: "grok-4.3",
    finishReason: "stop",
    text: "hello",
    reasoning: 'The user says: "Reply with exactly: hello"\n',
    toolCalls: [],
    usage: {
      "promptTokens": 197,
      "completionTokens": 199,
      "totalTokens": 396,
      "cachedTokens": 192,
      "reasoningTokens": 198,
    },
    reasoningItems: ["rs_0d7f672c-6cf5-9f88-af4b-a8b16c2c965d"],
  },
];
