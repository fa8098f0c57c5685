import { assertEquals, assertStrictEquals } from "../support/assert.ts";
import {
  buildChatRequest,
  buildRequestBody,
  chatWire,
  type ReasoningEcho,
  toWireMessage,
} from "../../src/llm/chat_completions.ts";
import { createClient } from "../../src/llm/client.ts";
import type { ChatRequest, Message, StreamEvent, ToolSpec } from "../../src/llm/types.ts";
import { replayChunks } from "../support/fake_model_server.ts";
import { findProvider } from "../../src/config/providers.ts";

const schema = { type: "object", properties: {} };
const tool = (name: string): ToolSpec => ({ name, description: `${name} does things`, parameters: schema });

Deno.test("buildRequestBody() asks for a stream with usage and sorts tools by name", () => {
  const request: ChatRequest = {
    model: "deepseek-chat",
    messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }],
    tools: [tool("write_file"), tool("Zed"), tool("read_file"), tool("edit_file")],
  };
  assertEquals(buildRequestBody(request), {
    model: "deepseek-chat",
    messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }],
    stream: true,
    stream_options: { include_usage: true },
    tools: ["Zed", "edit_file", "read_file", "write_file"].map((name) => ({
      type: "function",
      function: { name, description: `${name} does things`, parameters: schema },
    })),
  });
  assertEquals(
    request.tools.map((t) => t.name),
    ["write_file", "Zed", "read_file", "edit_file"],
    "not mutated",
  );
});

Deno.test("buildRequestBody() omits tools when there are none", () => {
  const body = buildRequestBody({ model: "m", messages: [], tools: [] });
  assertStrictEquals("tools" in body, false);
});

Deno.test("toWireMessage() sends tool calls with reasoning_content, one space when no reasoning was kept, and no empty content", () => {
  const call = { id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' };
  const wireCall = {
    id: "call_1",
    type: "function",
    function: { name: "read_file", arguments: '{"path":"a.ts"}' },
  };
  assertEquals(
    toWireMessage({ role: "assistant", content: "", reasoning: "look first", toolCalls: [call] }),
    { role: "assistant", reasoning_content: "look first", tool_calls: [wireCall] },
  );
  assertEquals(toWireMessage({ role: "assistant", content: "ok", toolCalls: [call] }), {
    role: "assistant",
    content: "ok",
    reasoning_content: " ",
    tool_calls: [wireCall],
  });
  assertEquals(toWireMessage({ role: "assistant", content: "", reasoning: "r", toolCalls: [call] }, false), {
    role: "assistant",
    tool_calls: [wireCall],
  });
});

Deno.test("buildRequestBody() sends reasoning back by the provider's rule: auto only once the conversation holds reasoning", () => {
  const turn = (id: string, reasoning?: string): Message[] => [
    { role: "assistant", content: "", reasoning, toolCalls: [{ id, name: "read_file", arguments: "{}" }] },
    { role: "tool", toolCallId: id, name: "read_file", content: "x", isError: false },
  ];
  const echoed = (messages: Message[], echo: ReasoningEcho) =>
    (buildRequestBody({ model: "m", messages, tools: [] }, echo).messages as Record<string, unknown>[])
      .filter((message) => message.role === "assistant")
      .map((message) => message.reasoning_content);
  const plain = [{ role: "user" as const, content: "go" }, ...turn("c1"), ...turn("c2")];
  assertEquals(echoed(plain, "auto"), [undefined, undefined]);
  assertEquals(echoed(plain, "always"), [" ", " "]);
  // A thinking model: every tool-call message carries the field, " " where a step had no reasoning.
  const thinking = [{ role: "user" as const, content: "go" }, ...turn("c1"), ...turn("c2", "hmm")];
  assertEquals(echoed(thinking, "auto"), [" ", "hmm"]);
  assertEquals(echoed(thinking, "never"), [undefined, undefined]);
});

Deno.test("toWireMessage() sends a plain assistant answer without reasoning", () => {
  assertEquals(toWireMessage({ role: "assistant", content: "done", reasoning: "secret" }), {
    role: "assistant",
    content: "done",
  });
  assertEquals(toWireMessage({ role: "assistant", content: "done", reasoning: "r", toolCalls: [] }), {
    role: "assistant",
    content: "done",
  });
});

Deno.test("toWireMessage() sends a tool result as role tool with its tool_call_id", () => {
  const message = {
    role: "tool",
    toolCallId: "call_1",
    name: "read_file",
    content: "1 line",
    isError: false,
  } as const;
  assertEquals(toWireMessage(message), { role: "tool", tool_call_id: "call_1", content: "1 line" });
});

Deno.test("buildChatRequest() posts to /chat/completions with a bearer key only when one is given", () => {
  const request: ChatRequest = { model: "m", messages: [], tools: [] };
  assertEquals(buildChatRequest(request, { apiKey: "sk-1" }), {
    path: "/chat/completions",
    headers: { authorization: "Bearer sk-1" },
    body: buildRequestBody(request),
  });
  assertEquals(buildChatRequest(request, {}).headers, {});
});

Deno.test("a chat client keeps apart several calls that share one tool_calls array without index", async () => {
  // Two calls in one chunk, neither with an index or an id, then their arguments side by side: position
  // in the array is the index (once the second call's arguments were glued onto the first).
  const chunk = (delta: unknown, finish: string | null = null) =>
    JSON.stringify({
      id: "c1",
      object: "chat.completion.chunk",
      model: "m",
      choices: [{ delta, finish_reason: finish }],
    });
  const lines = [
    chunk({ role: "assistant", content: null }),
    chunk({
      tool_calls: [
        { type: "function", function: { name: "read_file", arguments: "" } },
        { type: "function", function: { name: "read_file", arguments: "" } },
      ],
    }),
    chunk({ tool_calls: [{ function: { arguments: '{"path":' } }, { function: { arguments: '{"path":' } }] }),
    chunk({ tool_calls: [{ function: { arguments: '"a.ts"}' } }, { function: { arguments: '"b.ts"}' } }] }),
    chunk({}, "tool_calls"),
  ];
  await using model = replayChunks(lines, { byteChunkSize: 9 });
  const events: StreamEvent[] = [];
  const request: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [] };
  const turn = await createClient({ api: "chat", baseUrl: model.url }).stream(
    request,
    new AbortController().signal,
    (e) => events.push(e),
  );
  assertEquals(turn.toolCalls.map(({ name, arguments: args }) => [name, args]), [
    ["read_file", '{"path":"a.ts"}'],
    ["read_file", '{"path":"b.ts"}'],
  ]);
  assertEquals(new Set(turn.toolCalls.map((call) => call.id)).size, 2, "ids of their own (random)");
  assertStrictEquals(turn.finishReason, "tool_calls");
  assertEquals(events, []);
});

Deno.test("toWireMessage() leaves reasoning_content out for providers that reject the field (Groq, Mistral, Gemini)", () => {
  const message = {
    role: "assistant" as const,
    content: "",
    reasoning: "thought",
    toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }],
  };
  assertEquals(Object.hasOwn(toWireMessage(message, false), "reasoning_content"), false);
  assertStrictEquals(toWireMessage(message).reasoning_content, "thought");
  const body = chatWire("never").buildRequest({ model: "m", messages: [message], tools: [] }, {}).body;
  assertEquals(JSON.stringify(body).includes("reasoning_content"), false);
  for (const name of ["groq", "mistral", "gemini"]) {
    assertStrictEquals(findProvider(name)?.reasoningEcho, "never", name);
  }
  for (const name of ["deepseek", "kimi"]) {
    assertStrictEquals(findProvider(name)?.reasoningEcho, undefined, name);
  }
});

Deno.test("buildRequestBody() sends opaque tool-call ids as c1, c2, … and keeps ids the model may read", () => {
  const openAi = "call_A4vzguahn4qZuNOJRAQkeVy1";
  const deepSeek = "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF";
  const call = (id: string) => ({ id, name: "run", arguments: "{}" });
  const result = (id: string): Message => ({
    role: "tool",
    toolCallId: id,
    name: "run",
    content: "ok",
    isError: false,
  });
  const request: ChatRequest = {
    model: "m",
    tools: [],
    messages: [
      { role: "user", content: "go" },
      // A server's own short id that looks like one of ours is kept, and never handed out again.
      { role: "assistant", content: "", toolCalls: [call(openAi), call("c1"), call("weather_0")] },
      result(openAi),
      result("c1"),
      result("weather_0"),
      { role: "assistant", content: "", toolCalls: [call(deepSeek)] },
      result(deepSeek),
    ],
  };
  const sent = buildRequestBody(request, "never").messages as {
    tool_calls?: { id: string }[];
    tool_call_id?: string;
  }[];
  const ids = sent.flatMap((message) =>
    message.tool_calls?.map((c) => c.id) ?? [message.tool_call_id ?? "-"]
  );
  assertEquals(ids, [
    "-",
    "c2",
    "c1",
    "weather_0",
    "c2",
    "c1",
    "weather_0",
    "c3",
    "c3",
  ]);
  // The conversation itself keeps the provider's ids.
  assertStrictEquals((request.messages[1] as { toolCalls: { id: string }[] }).toolCalls[0].id, openAi);
});

Deno.test("buildRequestBody() leaves out a tool the provider runs (Chat Completions has no form for it)", () => {
  const search: ToolSpec = {
    name: "web_search",
    description: "d",
    parameters: { type: "object" },
    server: "web_search",
  };
  const only = buildRequestBody({ model: "m", messages: [{ role: "user", content: "x" }], tools: [search] });
  assertStrictEquals(only.tools, undefined);
  assertStrictEquals(only.tool_choice, undefined);
});
