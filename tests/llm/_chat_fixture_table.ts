/** Expected turns of the recorded chat-completions fixtures, read off the files once (script plus eyeballing). */
import type { LlmError, ToolCall, Usage } from "../../src/llm/types.ts";

/** A long string checked by its length and both ends. */
export interface Long {
  length: number;
  start: string;
  end: string;
}

/** What one fixture file must assemble into, or the error it must raise. */
export interface Expected {
  file: string;
  model?: string;
  finishReason?: string;
  text?: string | Long;
  reasoning?: string | Long;
  toolCalls?: ToolCall[];
  usage?: Usage;
  error?: { kind: LlmError["kind"]; includes: string; partialOutput: boolean };
}

// Never computed by the code under test: a throwaway Python script printed the values, a human checked them.
/** One row per `*.chunks.txt` file in tests/fixtures/streams/chat/. */
export const TABLE: Expected[] = [
  {
    file: "alibaba-qwen3-coder-tool-markup-in-reasoning.chunks.txt",
    model: "qwen3-coder-plus",
    finishReason: "stop",
    text: "",
    reasoning: {
      length: 101,
      start: "Need weather for planning.\\n<t",
      end: 'isbon"}</function></tool_call>',
    },
    toolCalls: [],
    usage: { promptTokens: 10, completionTokens: 20, totalTokens: 30, cachedTokens: 0, reasoningTokens: 12 },
  },
  {
    file: "alibaba-qwen3-max-reasoning.chunks.txt",
    model: "qwen3-max",
    finishReason: "stop",
    text: { length: 816, start: 'The word **"strawberry"** cont', end: "returns `3`).  \n\n**Answer: 3**" },
    reasoning: {
      length: 3301,
      start: "We are asked: \"How many 'r's a",
      end: " 3.\n\nYes.\n\nSo final answer: 3.",
    },
    toolCalls: [],
    usage: {
      promptTokens: 24,
      completionTokens: 1355,
      totalTokens: 1379,
      cachedTokens: 0,
      reasoningTokens: 1084,
    },
  },
  {
    file: "alibaba-qwen3.5-plus-tool-json-in-reasoning.chunks.txt",
    model: "qwen3.5-plus",
    finishReason: "stop",
    text: "",
    reasoning: {
      length: 132,
      start: '```json\n{"tool_calls":[{"id":"',
      end: '{\\"city\\":\\"Lisbon\\"}"}}]}\n```',
    },
    toolCalls: [],
    usage: { promptTokens: 10, completionTokens: 20, totalTokens: 30, cachedTokens: 0, reasoningTokens: 12 },
  },
  {
    file: "azure-openai-gpt-5-nano-model-router.chunks.txt",
    model: "gpt-5-nano-2025-08-07",
    finishReason: "stop",
    text: "Capital of Denmark.",
    reasoning: "",
    toolCalls: [],
    usage: { promptTokens: 15, completionTokens: 78, totalTokens: 93, cachedTokens: 0, reasoningTokens: 64 },
  },
  {
    file: "deepseek-chat-text-length.chunks.txt",
    model: "deepseek-chat",
    finishReason: "length",
    text: { length: 1855, start: "## **Holiday Name:** Starlight", end: "5 minutes of silent looking at" },
    reasoning: "",
    toolCalls: [],
    usage: { promptTokens: 13, completionTokens: 400, totalTokens: 413, cachedTokens: 0 },
  },
  {
    file: "deepseek-reasoner-reasoning.chunks.txt",
    model: "deepseek-reasoner",
    finishReason: "stop",
    text: 'The word "strawberry" contains three "r"s.',
    reasoning: {
      length: 606,
      start: "We need to count the number of",
      end: "es, 3.\n\nThus, the answer is 3.",
    },
    toolCalls: [],
    usage: {
      promptTokens: 18,
      completionTokens: 219,
      totalTokens: 237,
      cachedTokens: 0,
      reasoningTokens: 205,
    },
  },
  {
    file: "deepseek-reasoner-tool-call.chunks.txt",
    model: "deepseek-reasoner",
    finishReason: "tool_calls",
    text: "",
    reasoning: {
      length: 191,
      start: "The user is asking for the wea",
      end: 'ameter set to "San Francisco".',
    },
    toolCalls: [{
      id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
      name: "weather",
      arguments: '{"location": "San Francisco"}',
    }],
    usage: {
      promptTokens: 339,
      completionTokens: 83,
      totalTokens: 422,
      cachedTokens: 320,
      reasoningTokens: 39,
    },
  },
  {
    file: "deepseek-v4-flash-reasoning-length.chunks.txt",
    model: "deepseek-v4-flash",
    finishReason: "length",
    text: "",
    reasoning: "We need to respond with OK.",
    toolCalls: [],
    usage: { promptTokens: 87, completionTokens: 8, totalTokens: 95, cachedTokens: 0, reasoningTokens: 7 },
  },
  {
    file: "groq-llama-3.3-tool-call.chunks.txt",
    model: "llama-3.3-70b-versatile",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{ id: "tk85n1k4m", name: "weather", arguments: "{}" }],
    usage: { promptTokens: 210, completionTokens: 15, totalTokens: 225 },
  },
  {
    file: "mistral-empty-choices-mid-stream.chunks.txt",
    model: "mistral-small-latest",
    finishReason: "stop",
    text: "Hello!",
    reasoning: "",
    toolCalls: [],
    usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 },
  },
  {
    file: "mistral-magistral-thinking-parts.chunks.txt",
    model: "magistral-medium-2507",
    finishReason: "stop",
    text: "2 + 2 = 4",
    reasoning: "The user is asking for 2+2. This is basic arithmetic. 2+2=4.",
    toolCalls: [],
    usage: { promptTokens: 10, completionTokens: 46, totalTokens: 56 },
  },
  {
    file: "mistral-small-padding-field.chunks.txt",
    model: "mistral-small-latest",
    finishReason: "stop",
    text: "OK",
    reasoning: "",
    toolCalls: [],
    usage: { promptTokens: 19, completionTokens: 2, totalTokens: 21, cachedTokens: 0 },
  },
  {
    file: "mistral-small-tool-call-no-index.chunks.txt",
    model: "mistral-small-latest",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{ id: "gSIMJiOkT", name: "weather", arguments: '{"location": "San Francisco"}' }],
    usage: { promptTokens: 124, completionTokens: 22, totalTokens: 146 },
  },
  {
    file: "moonshot-error-after-partial-content.chunks.txt",
    error: {
      kind: "stream_error",
      includes: "Stream failed (server_error, stream_failure)",
      partialOutput: true,
    },
  },
  {
    file: "moonshot-error-object-variants.chunks.txt",
    error: {
      kind: "stream_error",
      includes: "Coded stream failure (server_error, stream_code)",
      partialOutput: false,
    },
  },
  {
    file: "moonshot-kimi-k2.5-tool-call-fragments.chunks.txt",
    model: "kimi-k2.5",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{ id: "weather_0", name: "weather", arguments: '{"location": "San Francisco"}' }],
    usage: { promptTokens: 61, completionTokens: 19, totalTokens: 80, reasoningTokens: 1 },
  },
  {
    file: "moonshot-kimi-k3-reasoning-text.chunks.txt",
    model: "kimi-k3",
    finishReason: "stop",
    text: "OK",
    reasoning: {
      length: 143,
      start: "The user is asking me to reply",
      end: 'nd with "OK" and nothing else.',
    },
    toolCalls: [],
    usage: {
      promptTokens: 90,
      completionTokens: 50,
      totalTokens: 140,
      cachedTokens: 90,
      reasoningTokens: 33,
    },
  },
  {
    file: "moonshot-kimi-k3-reasoning-tool-call.chunks.txt",
    model: "kimi-k3",
    finishReason: "tool_calls",
    text: "",
    reasoning: {
      length: 207,
      start: "User explicitly asks use get_w",
      end: "xpose. Call get_weather Paris.",
    },
    toolCalls: [{ id: "get_weather_0", name: "get_weather", arguments: '{"city": "Paris"}' }],
    usage: {
      promptTokens: 213,
      completionTokens: 99,
      totalTokens: 312,
      cachedTokens: 213,
      reasoningTokens: 46,
    },
  },
  {
    file: "moonshot-malformed-tool-call-index.chunks.txt",
    error: { kind: "bad_response", includes: 'invalid index "zero"', partialOutput: false },
  },
  {
    file: "moonshot-parallel-tool-calls-mixed-index.chunks.txt",
    model: "kimi-k3",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{ id: "call-weather", name: "get_weather", arguments: '{"city":"Paris"}' }, {
      id: "call-time",
      name: "get_time",
      arguments: '{"zone":"UTC"}',
    }],
    usage: { promptTokens: 11, completionTokens: 6, totalTokens: 17 },
  },
  {
    file: "openai-compatible-empty-tool-calls-arrays.chunks.txt",
    model: "test-model",
    finishReason: "stop",
    text: "Hello",
    reasoning: "Think more...",
    toolCalls: [],
    usage: undefined,
  },
  {
    file: "openai-compatible-placeholder-first-chunk.chunks.txt",
    model: "actual-model-name",
    finishReason: "stop",
    text: "Hello",
    reasoning: "",
    toolCalls: [],
    usage: { promptTokens: 10, completionTokens: 1, totalTokens: 11 },
  },
  {
    file: "openai-compatible-tiny-reasoning-chunks.chunks.txt",
    model: "test-model",
    finishReason: "stop",
    text: "Hi there!",
    reasoning: 'First, the user said: "Hello." That is simple.',
    toolCalls: [],
    usage: undefined,
  },
  {
    file: "xai-gateway-provider-metadata-delta.chunks.txt",
    model: "spacexai/grok-4.1-fast-non-reasoning",
    finishReason: "stop",
    text: "OK",
    reasoning: "",
    toolCalls: [],
    usage: {
      promptTokens: 675,
      completionTokens: 1,
      totalTokens: 676,
      cachedTokens: 674,
      reasoningTokens: 0,
    },
  },
  {
    file: "xai-grok-3-mini-reasoning-tool-call.chunks.txt",
    model: "grok-3-mini",
    finishReason: "tool_calls",
    text: "",
    reasoning: {
      length: 1069,
      start: "First, the user is asking abou",
      end: "this is the logical next step.",
    },
    toolCalls: [{ id: "call_79382389", name: "weather", arguments: '{"location":"San Francisco"}' }],
    usage: {
      promptTokens: 307,
      completionTokens: 26,
      totalTokens: 560,
      cachedTokens: 306,
      reasoningTokens: 227,
    },
  },
];
