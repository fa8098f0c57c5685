import { assert, assertEquals, assertMatch, assertStrictEquals, assertThrows } from "../support/assert.ts";
import { ChatAssembler, toUsage } from "../../src/llm/_chat_assembler.ts";
import { type AssistantTurn, LlmError, type StreamEvent } from "../../src/llm/types.ts";

/** A chat.completion.chunk with one choice. */
function chunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, ...extra }] };
}

/** Feeds the chunks (and [DONE] unless told not to) and returns the events and the turn. */
function run(
  chunks: unknown[],
  options: { done?: boolean } = {},
): { events: StreamEvent[]; turn: AssistantTurn } {
  const assembler = new ChatAssembler();
  const events = chunks.flatMap((c) => assembler.pushEvent(c));
  if (options.done ?? true) assembler.done();
  return { events, turn: assembler.finish() };
}

function toolDelta(calls: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return chunk({ tool_calls: calls }, extra);
}

function assertLlmError(fn: () => unknown, kind: LlmError["kind"], pattern: RegExp, partial = false): void {
  assert(((error: unknown) => {
    assert(error instanceof LlmError);
    assertStrictEquals(error.kind, kind);
    assertMatch(error.message, pattern);
    assertStrictEquals(error.partialOutput, partial);
    return true;
  })(assertThrows(fn)));
}

Deno.test("ChatAssembler joins text deltas and emits one text_delta per non-empty piece", () => {
  const { events, turn } = run([
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "Hel" }),
    chunk({
      content: "lo",
    }, { finish_reason: "stop" }),
  ]);
  assertEquals(events, [{ type: "text_delta", text: "Hel" }, { type: "text_delta", text: "lo" }]);
  assertEquals(turn, { text: "Hello", reasoning: "", toolCalls: [], finishReason: "stop", model: "m" });
});

Deno.test("ChatAssembler reads reasoning from reasoning_content and from reasoning, never both twice", () => {
  const { turn, events } = run([
    chunk({ reasoning_content: "a", content: null }),
    chunk({ reasoning: "b" }),
    chunk({ reasoning_content: "c", reasoning: "c" }),
    chunk({ reasoning_content: null, content: "x" }),
  ]);
  assertStrictEquals(turn.reasoning, "abc");
  assertStrictEquals(turn.text, "x");
  assertEquals(events.map((e) => e.type), [
    "reasoning_delta",
    "reasoning_delta",
    "reasoning_delta",
    "text_delta",
  ]);
});

Deno.test("ChatAssembler splits Mistral content parts into reasoning and text", () => {
  const { turn } = run([
    chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "think " }] }] }),
    chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "more" }] }, { type: "image" }] }),
    chunk({ content: [{ type: "text", text: "answer" }] }),
    chunk({ content: "" }, { finish_reason: "stop" }),
  ]);
  assertStrictEquals(turn.reasoning, "think more");
  assertStrictEquals(turn.text, "answer");
});

Deno.test("ChatAssembler merges tool-call fragments by index", () => {
  const { turn, events } = run([
    toolDelta([{ index: 0, id: "call_a", type: "function", function: { name: "read_file", arguments: "" } }]),
    toolDelta([{ index: 0, function: { arguments: '{"pa' } }]),
    toolDelta([{ index: 0, id: "", function: { arguments: 'th":"x"}' } }]),
    chunk({}, { finish_reason: "tool_calls" }),
  ]);
  assertEquals(turn.toolCalls, [{ id: "call_a", name: "read_file", arguments: '{"path":"x"}' }]);
  assertStrictEquals(turn.finishReason, "tool_calls");
  assertEquals(events, []);
});

Deno.test("ChatAssembler assigns random local ids to tool calls that never got one", () => {
  const { turn } = run([
    toolDelta([{ index: 0, function: { name: "a", arguments: "{}" } }, {
      index: 1,
      id: "",
      function: { name: "b" },
    }]),
    toolDelta([{ index: 1, id: "", function: { arguments: "{}" } }]),
  ]);
  assertEquals(turn.toolCalls.map(({ name, arguments: args }) => [name, args]), [["a", "{}"], ["b", "{}"]]);
  // Random, so nothing reading tern's events can guess the id of a call before it is made.
  const [first, second] = turn.toolCalls.map((call) => call.id);
  for (const id of [first, second]) assertMatch(id, /^call_[A-Za-z0-9]{24}$/);
  assert(first !== second && first !== "call_0");
});

Deno.test("ChatAssembler keeps the first name when later fragments repeat it", () => {
  const { turn } = run([
    toolDelta([{ index: 0, id: "x", function: { name: "grep", arguments: "{" } }]),
    toolDelta([{ index: 0, id: "x", function: { name: "grep", arguments: "}" } }]),
  ]);
  assertEquals(turn.toolCalls, [{ id: "x", name: "grep", arguments: "{}" }]);
});

Deno.test("ChatAssembler uses the array position when fragments carry no index", () => {
  const { turn } = run([
    toolDelta([{ id: "w", function: { name: "weather", arguments: '{"c":"' } }, {
      id: "t",
      function: { name: "time", arguments: '{"z":"' },
    }]),
    toolDelta([{ index: 1, function: { arguments: 'UTC"}' } }, {
      index: 0,
      function: { arguments: 'Paris"}' },
    }]),
  ]);
  assertEquals(turn.toolCalls, [
    { id: "w", name: "weather", arguments: '{"c":"Paris"}' },
    { id: "t", name: "time", arguments: '{"z":"UTC"}' },
  ]);
});

Deno.test("ChatAssembler treats each position as its own call when one array holds several unindexed calls", () => {
  // No index and no id, two calls to the same function in one chunk, then their arguments side by side.
  const { turn } = run([
    toolDelta([
      { type: "function", function: { name: "read_file", arguments: '{"path":' } },
      { type: "function", function: { name: "read_file", arguments: '{"path":' } },
    ]),
    toolDelta([{ function: { arguments: '"a.ts"}' } }, { function: { arguments: '"b.ts"}' } }]),
  ]);
  assertEquals(turn.toolCalls.map(({ name, arguments: args }) => [name, args]), [
    ["read_file", '{"path":"a.ts"}'],
    ["read_file", '{"path":"b.ts"}'],
  ]);
  assertEquals(new Set(turn.toolCalls.map((call) => call.id)).size, 2);
});

Deno.test("ChatAssembler continues the last call when a fragment has neither index nor id", () => {
  const { turn } = run([
    toolDelta([{ id: "a", function: { name: "ls", arguments: '{"p' } }]),
    toolDelta([{ function: { arguments: '":1}' } }]),
    toolDelta([{ id: "b", function: { name: "cat", arguments: "{" } }]),
    toolDelta([{ function: { arguments: "}" } }]),
    toolDelta([{ function: { name: "pwd", arguments: "{}" } }]),
  ]);
  assertEquals(turn.toolCalls.slice(0, 2), [
    { id: "a", name: "ls", arguments: '{"p":1}' },
    { id: "b", name: "cat", arguments: "{}" },
  ]);
  assertMatch(turn.toolCalls[2].id, /^call_[A-Za-z0-9]{24}$/);
  assertEquals([turn.toolCalls[2].name, turn.toolCalls[2].arguments], ["pwd", "{}"]);
});

Deno.test("ChatAssembler orders tool calls by index when indices arrive out of order or start at 1", () => {
  const { turn } = run([
    toolDelta([{ index: 2, id: "second", function: { name: "b", arguments: "{}" } }]),
    toolDelta([{ index: 1, id: "first", function: { name: "a", arguments: "{}" } }]),
  ]);
  assertEquals(turn.toolCalls.map((c) => c.id), ["first", "second"]);
});

Deno.test("ChatAssembler accepts a numeric string index and rejects a nonsense one with a clear error", () => {
  const { turn } = run([toolDelta([{ index: "0", id: "a", function: { name: "x", arguments: "{}" } }])]);
  assertEquals(turn.toolCalls, [{ id: "a", name: "x", arguments: "{}" }]);
  const assembler = new ChatAssembler({ source: "http://h/v1" });
  const bad = toolDelta([{ index: "zero", id: "a", function: { name: "x", arguments: "{}" } }]);
  assertLlmError(
    () => assembler.pushEvent(bad),
    "bad_response",
    /^http:\/\/h\/v1 sent a tool call with an invalid index "zero"/,
  );
});

Deno.test("ChatAssembler takes a whole tool call in one fragment in the same chunk as finish_reason", () => {
  const { turn } = run([
    chunk({ role: "assistant", content: "" }),
    toolDelta([{ id: "gS", function: { name: "weather", arguments: '{"l": "SF"}' } }], {
      finish_reason: "tool_calls",
    }),
  ], { done: false });
  assertEquals(turn.toolCalls, [{ id: "gS", name: "weather", arguments: '{"l": "SF"}' }]);
  assertStrictEquals(turn.finishReason, "tool_calls");
});

Deno.test("ChatAssembler creates no tool call from empty tool_calls arrays", () => {
  const { turn, events } = run([
    chunk({ content: "", reasoning_content: "r", tool_calls: [] }),
    chunk({ content: "t", tool_calls: [] }, { finish_reason: "stop" }),
  ]);
  assertEquals(turn.toolCalls, []);
  assertStrictEquals(events.length, 2);
});

Deno.test("ChatAssembler keeps tool-call markup inside reasoning as reasoning", () => {
  const markup = '<tool_call><function=get_weather>{"city":"Lisbon"}</function></tool_call>';
  const json = '{"tool_calls":[{"id":"c","type":"function","function":{"name":"x","arguments":"{}"}}]}';
  const { turn } = run([
    chunk({ reasoning_content: markup.slice(0, 20) }),
    chunk({ reasoning_content: markup.slice(20) + json }, { finish_reason: "stop" }),
  ]);
  assertStrictEquals(turn.reasoning, markup + json);
  assertEquals(turn.toolCalls, []);
});

Deno.test("ChatAssembler skips choices [] chunks and ignores unknown fields", () => {
  const { turn } = run([
    { id: "", model: "", choices: [], created: 0, prompt_filter_results: [] },
    chunk({ content: "a", provider_metadata: { x: 1 } }, { logprobs: null, content_filter_results: {} }),
    { choices: [], usage: null, p: "padding" },
    chunk({ content: "b" }, { finish_reason: "stop" }),
  ]);
  assertStrictEquals(turn.text, "ab");
  assertStrictEquals(turn.model, "m");
});

Deno.test("ChatAssembler takes the model from the chunks, ignoring an empty placeholder model", () => {
  const { turn } = run([{ choices: [], model: "" }, { ...chunk({ content: "x" }), model: "real" }, {
    choices: [],
    model: "",
  }]);
  assertStrictEquals(turn.model, "real");
});

Deno.test("ChatAssembler keeps the last usage reported at top level or inside the choice", () => {
  const { turn } = run([
    chunk({ content: "x" }, { finish_reason: "stop", usage: { prompt_tokens: 1, completion_tokens: 1 } }),
    { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 20 } },
    { choices: [], usage: null },
  ]);
  assertEquals(turn.usage, { promptTokens: 10, completionTokens: 5, totalTokens: 20 });
});

Deno.test("toUsage() maps cached tokens from DeepSeek, OpenAI and Kimi fields, and reasoning tokens", () => {
  const base = { prompt_tokens: 100, completion_tokens: 20 };
  assertEquals(
    toUsage({ ...base, prompt_cache_hit_tokens: 80, prompt_tokens_details: { cached_tokens: 1 } }),
    {
      promptTokens: 100,
      completionTokens: 20,
      totalTokens: 120,
      cachedTokens: 80,
    },
  );
  assertStrictEquals(toUsage({ ...base, prompt_tokens_details: { cached_tokens: 64 } })?.cachedTokens, 64);
  assertStrictEquals(toUsage({ ...base, cached_tokens: 32 })?.cachedTokens, 32);
  assertStrictEquals(
    toUsage({ ...base, completion_tokens_details: { reasoning_tokens: 7 } })?.reasoningTokens,
    7,
  );
  assertStrictEquals(toUsage({ queue_time: 1 }), undefined);
  assertStrictEquals(toUsage(null), undefined);
});

Deno.test("ChatAssembler completes on [DONE] alone and infers the finish reason", () => {
  assertStrictEquals(run([chunk({ content: "x" })]).turn.finishReason, "stop");
  const withCall = run([toolDelta([{ index: 0, id: "a", function: { name: "f", arguments: "{}" } }])]);
  assertStrictEquals(withCall.turn.finishReason, "tool_calls");
});

Deno.test("ChatAssembler reports a stream without [DONE] or finish_reason as interrupted", () => {
  const assembler = new ChatAssembler({ source: "http://h/v1" });
  assertLlmError(
    () => assembler.finish(),
    "interrupted",
    /^The stream from http:\/\/h\/v1 ended after 0 chunk/,
  );
  assembler.pushEvent(chunk({ content: "partial" }));
  assertLlmError(() => assembler.finish(), "interrupted", /ended after 1 chunk\(s\) without \[DONE\]/, true);
});

Deno.test("ChatAssembler marks partial output only after a text or reasoning delta", () => {
  const assembler = new ChatAssembler();
  assembler.pushEvent(toolDelta([{ index: 0, id: "a", function: { name: "f", arguments: "{" } }]));
  assertStrictEquals(assembler.hasOutput, false);
  assembler.pushEvent(chunk({ reasoning_content: "r" }));
  assertStrictEquals(assembler.hasOutput, true);
});

Deno.test("ChatAssembler turns each in-stream error shape into a stream_error with the provider's words", () => {
  const cases: [unknown, string][] = [
    [{ error: { message: "Overloaded", type: "server_error", code: 529 } }, "Overloaded (server_error, 529)"],
    [{ error: { message: "Bad", type: "x", code: null } }, "Bad (x)"],
    [{ error: "quota exceeded" }, "quota exceeded"],
    [{ object: "error", message: "Service unavailable", type: "internal" }, "Service unavailable (internal)"],
    [
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      "Overloaded (overloaded_error)",
    ],
  ];
  for (const [payload, message] of cases) {
    const assembler = new ChatAssembler({ source: "S" });
    assembler.pushEvent(chunk({ content: "so far" }));
    assertLlmError(
      () => assembler.pushEvent(payload),
      "stream_error",
      new RegExp(`^Stream error from S: ${escape(message)}$`),
      true,
    );
  }
});

Deno.test("ChatAssembler rejects a chunk that is not an object and a tool call without a name", () => {
  assertLlmError(() => new ChatAssembler().pushEvent(42), "bad_response", /not a JSON object/);
  const assembler = new ChatAssembler();
  assembler.pushEvent(toolDelta([{ index: 0, id: "a", function: { arguments: "{}" } }]));
  assembler.done();
  assertLlmError(() => assembler.finish(), "bad_response", /tool call #0 without a name/);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test("ChatAssembler maps provider finish words to tern's and keeps the raw word only when it differs", () => {
  const finish = (word: string, calls = false) => {
    const call = toolDelta([{ index: 0, id: "a", function: { name: "f", arguments: "{}" } }]);
    return run([chunk({ content: "x" }), ...(calls ? [call] : []), chunk({}, { finish_reason: word })]).turn;
  };
  assertEquals([finish("stop").finishReason, finish("stop").rawFinishReason], ["stop", undefined]);
  assertEquals([finish("end_turn").finishReason, finish("end_turn").rawFinishReason], [
    "stop",
    "end_turn",
  ]);
  assertStrictEquals(finish("function_call", true).finishReason, "tool_calls");
  assertStrictEquals(finish("sensitive").finishReason, "content_filter");
  assertStrictEquals(finish("max_tokens").finishReason, "length");
  assertEquals([finish("eos_token").finishReason, finish("eos_token").rawFinishReason], [
    "stop",
    "eos_token",
  ]);
  assertStrictEquals(finish("whatever", true).finishReason, "tool_calls");
});

Deno.test("ChatAssembler reads SSE events: JSON chunks, keep-alive blanks, and [DONE] which ends the stream", () => {
  const assembler = new ChatAssembler({ source: "S" });
  const data = (value: unknown) => ({ event: "message", data: JSON.stringify(value) });
  assertEquals(assembler.push(data(chunk({ content: "hi" }))), [{ type: "text_delta", text: "hi" }]);
  assertEquals(assembler.push({ event: "message", data: " " }), []);
  assertStrictEquals(assembler.ended, false);
  assertEquals(assembler.push({ event: "message", data: " [DONE] " }), []);
  assertStrictEquals(assembler.ended, true);
  assertStrictEquals(assembler.finish().text, "hi");
  assertLlmError(
    () => new ChatAssembler({ source: "S" }).push({ event: "message", data: "{oops" }),
    "bad_response",
    /^S sent a stream event that is not JSON: \{oops$/,
  );
});
