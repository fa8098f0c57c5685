import { assert, assertEquals, assertMatch, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { buildAnthropicBody, buildAnthropicRequest, toolUseId } from "../../src/llm/anthropic_messages.ts";
import { createClient } from "../../src/llm/client.ts";
import { type ChatRequest, LlmError, type Message } from "../../src/llm/types.ts";
import { startFakeModel } from "../support/fake_model_server.ts";

const TOOLS = [
  { name: "read_file", description: "Read", parameters: { type: "object" } },
  { name: "edit_file", description: "Edit", parameters: { type: "object" } },
];
const CACHE = { type: "ephemeral" };
const never = new AbortController().signal;

function request(messages: Message[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: "claude-test", messages, tools: TOOLS, ...extra };
}

const HISTORY: Message[] = [
  { role: "system", content: "You are tern." },
  { role: "user", content: "fix it" },
  {
    role: "assistant",
    content: "Reading.",
    reasoning: "Look first.",
    toolCalls: [{ id: "toolu_1", name: "read_file", arguments: '{"path":"a.txt"}' }],
    providerData: {
      api: "anthropic",
      blocks: [{ type: "thinking", thinking: "Look first.", signature: "S1" }],
    },
  },
  { role: "tool", toolCallId: "toolu_1", name: "read_file", content: "no such file", isError: true },
];

Deno.test("buildAnthropicBody() puts the system prompt on top, thinking first, results as tool_result blocks", () => {
  const body = buildAnthropicBody(request(HISTORY));
  assertEquals(body.system, [{ type: "text", text: "You are tern.", cache_control: CACHE }]);
  assertEquals(body.messages, [
    { role: "user", content: [{ type: "text", text: "fix it" }] },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Look first.", signature: "S1" },
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.txt" } },
      ],
    },
    {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: "no such file",
        is_error: true,
        cache_control: CACHE,
      }],
    },
  ]);
  assertStrictEquals(body.max_tokens, 16_384);
  assertStrictEquals(body.stream, true);
});

Deno.test("buildAnthropicBody() sorts the tools and marks the last one as a cache breakpoint", () => {
  const body = buildAnthropicBody(request([{ role: "user", content: "hi" }]));
  assertEquals(body.tools, [
    { name: "edit_file", description: "Edit", input_schema: { type: "object" } },
    { name: "read_file", description: "Read", input_schema: { type: "object" }, cache_control: CACHE },
  ]);
  assertStrictEquals(body.tool_choice, undefined);
});

Deno.test("buildAnthropicBody() drops another wire's providerData and thinking on turns without tool calls", () => {
  const foreign: Message[] = [
    { role: "user", content: "hi" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "functions.read_file:0", name: "read_file", arguments: "not json" }],
      providerData: {
        api: "responses",
        reasoning: [{ type: "reasoning", id: "rs_1", encrypted_content: "E" }],
      },
    },
    { role: "tool", toolCallId: "functions.read_file:0", name: "read_file", content: "ok", isError: false },
    { role: "user", content: "and now?" },
    { role: "assistant", content: "", providerData: { api: "anthropic", blocks: [{ type: "thinking" }] } },
  ];
  const messages = buildAnthropicBody(request(foreign)).messages as { role: string; content: unknown[] }[];
  // Kimi's id is made acceptable on the call and on its result alike; bad JSON arguments become {}.
  assertEquals(messages[1].content, [
    { type: "tool_use", id: "functions_read_file_0", name: "read_file", input: {} },
  ]);
  assertEquals(messages[2].content, [
    { type: "tool_result", tool_use_id: "functions_read_file_0", content: "ok" },
    { type: "text", text: "and now?", cache_control: CACHE },
  ]);
  // The empty assistant message is left out: the API refuses empty content.
  assertStrictEquals(messages.length, 3);
  assertStrictEquals(toolUseId("call_0-x"), "call_0-x");
});

Deno.test("buildAnthropicBody() maps tool_choice: required to any, a name to tool, and auto as itself", () => {
  const choice = (toolChoice: ChatRequest["toolChoice"]) =>
    buildAnthropicBody(request([{ role: "user", content: "hi" }], { toolChoice })).tool_choice;
  assertEquals(choice("required"), { type: "any" });
  assertEquals(choice({ name: "read_file" }), { type: "tool", name: "read_file" });
  assertEquals(choice("auto"), { type: "auto" });
  const noTools = buildAnthropicBody({
    model: "m",
    messages: [{ role: "user", content: "x" }],
    tools: [],
    toolChoice: "required",
  });
  assertStrictEquals(noTools.tool_choice, undefined);
});

Deno.test("buildAnthropicRequest() posts to /v1/messages with x-api-key and the version header", () => {
  const wire = buildAnthropicRequest(request([{ role: "user", content: "hi" }]), { apiKey: "sk-ant" });
  assertStrictEquals(wire.path, "/v1/messages");
  assertEquals(wire.headers, { "anthropic-version": "2023-06-01", "x-api-key": "sk-ant" });
  assertEquals(buildAnthropicRequest(request([]), {}).headers, { "anthropic-version": "2023-06-01" });
});

Deno.test("Anthropic client round-trips thinking with its signature through the fake server's checks", async () => {
  await using model = startFakeModel([
    { reasoning: "Read it first.", toolCalls: [{ name: "read_file", arguments: '{"path":"a"}' }] },
    { text: "Done." },
  ]);
  const client = createClient({ api: "anthropic", baseUrl: model.root, apiKey: "k" });
  const history: Message[] = [{ role: "system", content: "sys" }, { role: "user", content: "go" }];
  const first = await client.stream(request(history), never, () => {});
  assertStrictEquals(first.reasoning, "Read it first.");
  assertStrictEquals(first.finishReason, "tool_calls");
  assertEquals(first.providerData?.api, "anthropic");
  const call = first.toolCalls[0];
  history.push(
    {
      role: "assistant",
      content: "",
      reasoning: first.reasoning,
      toolCalls: first.toolCalls,
      providerData: first.providerData,
    },
    { role: "tool", toolCallId: call.id, name: call.name, content: "text", isError: false },
  );
  const second = await client.stream(request(history), never, () => {});
  assertStrictEquals(second.text, "Done.");
  assertEquals(model.wires, ["anthropic", "anthropic"]);
});

Deno.test("the fake Anthropic server rejects a tool-call turn sent back without its thinking", async () => {
  await using model = startFakeModel([
    { reasoning: "Think.", toolCalls: [{ id: "toolu_x", name: "read_file", arguments: "{}" }] },
    { text: "never" },
  ]);
  const client = createClient({ api: "anthropic", baseUrl: model.root });
  const first = await client.stream(request([{ role: "user", content: "go" }]), never, () => {});
  const history: Message[] = [
    { role: "user", content: "go" },
    { role: "assistant", content: "", toolCalls: first.toolCalls }, // providerData lost
    { role: "tool", toolCallId: "toolu_x", name: "read_file", content: "x", isError: false },
  ];
  assert(((error: unknown) => {
    assert(error instanceof LlmError && error.status === 400);
    assertMatch(error.message, /must send back its thinking block with signature sig-0-/);
    return true;
  })(await assertRejects(() => client.stream(request(history), never, () => {}))));
});

Deno.test("the fake Anthropic server rejects a tool_result that answers no tool_use", async () => {
  await using model = startFakeModel([{ text: "never" }]);
  const client = createClient({ api: "anthropic", baseUrl: model.root });
  const history: Message[] = [
    { role: "user", content: "go" },
    { role: "assistant", content: "ok" },
    { role: "tool", toolCallId: "toolu_ghost", name: "read_file", content: "x", isError: false },
  ];
  assertMatch(
    String(await assertRejects(() => client.stream(request(history), never, () => {}))),
    /answers no tool_use/,
  );
});

Deno.test("an in-stream overloaded_error is a retryable stream_error; invalid_request_error is not", async () => {
  await using model = startFakeModel([
    { text: "Hi", streamError: { message: "Overloaded", type: "overloaded_error" } },
    { streamError: { message: "bad", type: "invalid_request_error" } },
  ]);
  const client = createClient({ api: "anthropic", baseUrl: model.root });
  const call = () => client.stream(request([{ role: "user", content: "go" }]), never, () => {});
  const overloaded = await call().catch((e) => e);
  assert(overloaded instanceof LlmError);
  assertEquals(
    [overloaded.kind, overloaded.retryable, overloaded.partialOutput],
    ["stream_error", true, true],
  );
  assertMatch(overloaded.message, /Overloaded \(overloaded_error\)/);
  const invalid = await call().catch((e) => e);
  assertStrictEquals(invalid.retryable, false);
});

Deno.test("an Anthropic stream cut before its stop_reason is interrupted, never a half turn", async () => {
  await using model = startFakeModel([{ text: "Hello there", cutAfterChunks: 5 }]);
  const client = createClient({ api: "anthropic", baseUrl: model.root });
  assert(((error: unknown) =>
    error instanceof LlmError && error.kind === "interrupted" &&
    /without a stop_reason/.test(error.message))(
      await assertRejects(() => client.stream(request([{ role: "user", content: "go" }]), never, () => {})),
    ));
});

Deno.test("buildAnthropicBody() declares a provider-run web_search as Anthropic's server tool; the breakpoint stays on a function", () => {
  const search = {
    name: "web_search",
    description: "d",
    parameters: { type: "object" },
    server: "web_search" as const,
  };
  const body = buildAnthropicBody(request([{ role: "user", content: "hi" }], { tools: [...TOOLS, search] }));
  assertEquals(body.tools, [
    { name: "edit_file", description: "Edit", input_schema: { type: "object" } },
    { name: "read_file", description: "Read", input_schema: { type: "object" }, cache_control: CACHE },
    { type: "web_search_20250305", name: "web_search", max_uses: 5 },
  ]);
});
