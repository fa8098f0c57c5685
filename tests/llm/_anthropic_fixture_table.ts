/** Expected turns of the recorded Anthropic Messages fixtures, read off the files (script plus eyeballing). */
import type { Expected } from "./_chat_fixture_table.ts";

/** A row plus what must round-trip: the signatures of the thinking blocks kept in providerData. */
export interface AnthropicExpected extends Expected {
  signatures?: { start: string; length: number }[];
  /** The deltas shown on the way do not add up to the turn (a second message_start replaced the first). */
  replaced?: boolean;
}

// Never computed by the code under test: a throwaway Python script printed the values, a human checked them.
/** One row per `*.chunks.txt` file in tests/fixtures/streams/anthropic/. */
export const ANTHROPIC_TABLE: AnthropicExpected[] = [
  {
    file: "anthropic-haiku-4.5-text-then-tool-use.chunks.txt",
    model: "claude-haiku-4-5-20251001",
    finishReason: "tool_calls",
    text: "I'll invoke the JSON response tool.",
    reasoning: "",
    toolCalls: [{
      "id": "toolu_01KFbKqPYSuAKujiL6mTfzYA",
      "name": "json",
      "arguments": '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}',
    }],
    usage: {
      "promptTokens": 849,
      "completionTokens": 47,
      "totalTokens": 896,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-opus-4.5-message-delta-input-tokens.chunks.txt",
    model: "claude-opus-4-5-20251101",
    finishReason: "stop",
    text: "pong",
    reasoning: "",
    toolCalls: [],
    usage: { "promptTokens": 61, "completionTokens": 2, "totalTokens": 63 },
  },
  {
    file: "anthropic-refusal-stop-details.chunks.txt",
    model: "claude-fable-5",
    finishReason: "content_filter",
    text: "",
    reasoning: "",
    toolCalls: [],
    usage: {
      "promptTokens": 18,
      "completionTokens": 5,
      "totalTokens": 23,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-server-tool-then-client-tool.chunks.txt",
    model: "claude-sonnet-4-20250514",
    finishReason: "tool_calls",
    text: "I'll save the results and search for the latest news.",
    reasoning: "",
    toolCalls: [{
      "id": "toolu_01SaveResults",
      "name": "save_results",
      "arguments": '{"filename": "news.txt"}',
    }],
    usage: {
      "promptTokens": 80,
      "completionTokens": 60,
      "totalTokens": 140,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-sonnet-4.5-parallel-tool-use-padded.chunks.txt",
    model: "claude-sonnet-4-5-20250929",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [
      { "id": "toolu_01LtEf4h1QW7KCKLsYMuhTNB", "name": "searchDocs", "arguments": '{"query": "alpha"}' },
      { "id": "toolu_016tfZE7otAFSBjhc67wu189", "name": "searchDocs", "arguments": '{"query": "beta"}' },
      { "id": "toolu_01XkU35z8BVWqqc9tijDuLrA", "name": "searchDocs", "arguments": '{"query": "gamma"}' },
    ],
    usage: {
      "promptTokens": 798,
      "completionTokens": 110,
      "totalTokens": 908,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-sonnet-4.5-text.chunks.txt",
    model: "claude-sonnet-4-5-20250929",
    finishReason: "stop",
    text: { length: 108, start: "Hello! I'm doing well, thank y", end: " anything I can help you with?" },
    reasoning: "",
    toolCalls: [],
    usage: {
      "promptTokens": 12,
      "completionTokens": 30,
      "totalTokens": 42,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-sonnet-4.5-thinking-signature.chunks.txt",
    model: "claude-sonnet-4-5-20250929",
    finishReason: "stop",
    text: "925 ÷ 5 = 185",
    reasoning: {
      length: 75,
      start: "The previous result was 925. N",
      end: "vide that by 5.\n\n925 ÷ 5 = 185",
    },
    toolCalls: [],
    usage: {
      "promptTokens": 69,
      "completionTokens": 53,
      "totalTokens": 122,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
    signatures: [{ start: "EvQBCkYICxgCKkAxhD4N", length: 332 }],
  },
  {
    file: "anthropic-sonnet-4.5-tool-input-escaped-quotes.chunks.txt",
    model: "claude-sonnet-4-5-20250929",
    finishReason: "tool_calls",
    text: "",
    reasoning: "",
    toolCalls: [{
      "id": "toolu_01Cr31vcGoeeRgi3Eo5Ds8qN",
      "name": "website_update",
      "arguments":
        '{"website_path": "/home/user/pace-landing", "tasks": [{"description": "Today you post every run to Strava, but Strava does not answer the question: \\"What should I do next after this run?\\". It is a great log, but it is not adaptive.", "type": "feature", "passes": false}]}',
    }],
    usage: {
      "promptTokens": 912,
      "completionTokens": 118,
      "totalTokens": 1030,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-sonnet-4.5-tool-use-no-args.chunks.txt",
    model: "claude-sonnet-4-5-20250929",
    finishReason: "tool_calls",
    text: "I'll update the issue list for you.",
    reasoning: "",
    toolCalls: [{ "id": "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", "name": "updateIssueList", "arguments": "{}" }],
    usage: {
      "promptTokens": 565,
      "completionTokens": 48,
      "totalTokens": 613,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-sonnet-4.6-cache-read-max-tokens.chunks.txt",
    model: "claude-sonnet-4-6",
    finishReason: "length",
    text: "OK",
    reasoning: "",
    toolCalls: [],
    usage: {
      "promptTokens": 18642,
      "completionTokens": 1,
      "totalTokens": 18643,
      "cachedTokens": 18639,
      "cacheWriteTokens": 0,
    },
  },
  {
    file: "anthropic-sonnet-5-thinking-padded.chunks.txt",
    model: "claude-sonnet-5",
    finishReason: "stop",
    text: { length: 539, start: "# Finding GCD(1071, 462) Using", end: " = 21 × 51 ✓\n- 462 = 21 × 22 ✓" },
    reasoning: {
      length: 190,
      start: "I'm working through the Euclid",
      end: "s the greatest common divisor.",
    },
    toolCalls: [],
    usage: {
      "promptTokens": 47,
      "completionTokens": 373,
      "totalTokens": 420,
      "cachedTokens": 0,
      "cacheWriteTokens": 0,
      "reasoningTokens": 62,
    },
    signatures: [{ start: "EsECCokBCBAYAipA9i3H", length: 436 }],
  },
  {
    file: "anthropic-spliced-message-start.chunks.txt",
    replaced: true,
    model: "claude-sonnet-4-20250514",
    finishReason: "tool_calls",
    text: "",
    reasoning: "second thinking",
    toolCalls: [{ "id": "toolu_second", "name": "lookup", "arguments": '{"value":"complete"}' }],
    usage: { "promptTokens": 20, "completionTokens": 30, "totalTokens": 50 },
    signatures: [{ start: "signature-second", length: 16 }],
  },
];
