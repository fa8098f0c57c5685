import { assert, assertEquals, assertMatch, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { createClient } from "../../src/llm/client.ts";
import { buildResponsesBody, buildResponsesRequest } from "../../src/llm/openai_responses.ts";
import { type ChatRequest, LlmError, type Message } from "../../src/llm/types.ts";
import { startFakeModel } from "../support/fake_model_server.ts";

const TOOLS = [{ name: "read_file", description: "Read", parameters: { type: "object" } }];
const never = new AbortController().signal;

function request(messages: Message[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: "gpt-test", messages, tools: TOOLS, ...extra };
}

const REASONING = {
  type: "reasoning",
  id: "rs_1",
  summary: [],
  encrypted_content: "E1",
  status: "completed",
};

Deno.test("buildResponsesBody() sends stateless input items: reasoning, text, calls, outputs by call_id", () => {
  const body = buildResponsesBody(request([
    { role: "system", content: "You are tern." },
    { role: "user", content: "fix it" },
    {
      role: "assistant",
      content: "Reading.",
      toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a"}' }],
      providerData: { api: "responses", reasoning: [REASONING] },
    },
    { role: "tool", toolCallId: "call_1", name: "read_file", content: "text", isError: false },
  ]));
  assertEquals(body.input, [
    { type: "message", role: "system", content: "You are tern." },
    { type: "message", role: "user", content: "fix it" },
    { type: "reasoning", summary: [], encrypted_content: "E1" },
    { type: "message", role: "assistant", content: "Reading." },
    { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a"}' },
    { type: "function_call_output", call_id: "call_1", output: "text" },
  ]);
  assertEquals([body.store, body.include, body.stream], [false, ["reasoning.encrypted_content"], true]);
  assertEquals(body.tools, [
    {
      type: "function",
      name: "read_file",
      description: "Read",
      parameters: { type: "object" },
      strict: false,
    },
  ]);
});

Deno.test("buildResponsesBody() drops another wire's providerData", () => {
  const body = buildResponsesBody(request([
    { role: "user", content: "hi" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "toolu_1", name: "read_file", arguments: "{}" }],
      providerData: { api: "anthropic", blocks: [{ type: "thinking", thinking: "t", signature: "S" }] },
    },
    { role: "tool", toolCallId: "toolu_1", name: "read_file", content: "x", isError: true },
  ]));
  assertEquals(body.input, [
    { type: "message", role: "user", content: "hi" },
    { type: "function_call", call_id: "toolu_1", name: "read_file", arguments: "{}" },
    { type: "function_call_output", call_id: "toolu_1", output: "x" },
  ]);
});

Deno.test("buildResponsesBody() maps tool_choice to its own words", () => {
  const body = (extra: Partial<ChatRequest>) =>
    buildResponsesBody(request([{ role: "user", content: "x" }], extra));
  assertEquals(body({ toolChoice: { name: "read_file" } }).tool_choice, {
    type: "function",
    name: "read_file",
  });
  assertStrictEquals(body({ toolChoice: "required" }).tool_choice, "required");
  assertStrictEquals(body({}).tool_choice, undefined);
});

Deno.test("buildResponsesRequest() posts to /responses with bearer auth when a key is given", () => {
  const wire = buildResponsesRequest(request([]), { apiKey: "sk-1" });
  assertEquals([wire.path, wire.headers], ["/responses", { authorization: "Bearer sk-1" }]);
  assertEquals(buildResponsesRequest(request([]), {}).headers, {});
});

Deno.test("Responses client sends the encrypted reasoning back in order through the fake server's checks", async () => {
  await using model = startFakeModel([
    { reasoning: "Read first.", toolCalls: [{ name: "read_file", arguments: '{"path":"a"}' }] },
    { text: "Done." },
  ]);
  const client = createClient({ api: "responses", baseUrl: model.url, apiKey: "k" });
  const history: Message[] = [{ role: "user", content: "go" }];
  const first = await client.stream(request(history), never, () => {});
  assertStrictEquals(first.reasoning, "Read first.");
  const kept = first.providerData?.reasoning as { id: string; encrypted_content: string }[];
  assertStrictEquals(kept[0].id, "rs_fake_0");
  history.push(
    { role: "assistant", content: "", toolCalls: first.toolCalls, providerData: first.providerData },
    { role: "tool", toolCallId: first.toolCalls[0].id, name: "read_file", content: "x", isError: false },
  );
  assertStrictEquals((await client.stream(request(history), never, () => {})).text, "Done.");
  assertEquals(model.wires, ["responses", "responses"]);
});

Deno.test("the fake Responses server refuses an echoed reasoning id, as OpenAI does with store:false", async () => {
  await using model = startFakeModel([{ text: "never" }]);
  // A hand-made body: tern's own builder never echoes the id.
  const response = await fetch(`${model.url}/responses`, {
    method: "POST",
    body: JSON.stringify({
      model: "m",
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      input: [{ type: "message", role: "user", content: "hi" }, {
        type: "reasoning",
        id: "rs_x",
        summary: [],
      }],
    }),
  });
  assertStrictEquals(response.status, 400);
  assertMatch(await response.text(), /Item with id 'rs_x' not found/);
});

Deno.test("the fake Responses server rejects a call sent back without its reasoning item", async () => {
  await using model = startFakeModel([
    { reasoning: "Think.", toolCalls: [{ id: "call_r", name: "read_file", arguments: "{}" }] },
    { text: "never" },
  ]);
  const client = createClient({ api: "responses", baseUrl: model.url });
  const first = await client.stream(request([{ role: "user", content: "go" }]), never, () => {});
  const history: Message[] = [
    { role: "user", content: "go" },
    { role: "assistant", content: "", toolCalls: first.toolCalls },
    { role: "tool", toolCallId: "call_r", name: "read_file", content: "x", isError: false },
  ];
  assertMatch(
    String(await assertRejects(() => client.stream(request(history), never, () => {}))),
    /function_call call_r must follow its reasoning item rs_fake_0/,
  );
});

Deno.test("the fake Responses server rejects an output without its call, and a call without its output", async () => {
  await using model = startFakeModel([{ text: "never" }, { text: "never" }]);
  const client = createClient({ api: "responses", baseUrl: model.url });
  const orphan: Message[] = [
    { role: "user", content: "go" },
    { role: "tool", toolCallId: "call_ghost", name: "read_file", content: "x", isError: false },
  ];
  assertMatch(
    String(await assertRejects(() => client.stream(request(orphan), never, () => {}))),
    /answers no function_call/,
  );
  const unanswered: Message[] = [
    { role: "user", content: "go" },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "read_file", arguments: "{}" }] },
    { role: "user", content: "again" },
  ];
  assertMatch(
    String(await assertRejects(() => client.stream(request(unanswered), never, () => {}))),
    /have no function_call_output/,
  );
});

Deno.test("a Responses turn cut by max_output_tokens is length, never complete", async () => {
  await using model = startFakeModel([{ text: "Partial answ", finishReason: "length" }]);
  const client = createClient({ api: "responses", baseUrl: model.url });
  const turn = await client.stream(request([{ role: "user", content: "go" }]), never, () => {});
  assertEquals([turn.text, turn.finishReason, turn.rawFinishReason], [
    "Partial answ",
    "length",
    "max_output_tokens",
  ]);
});

Deno.test("a Responses error event is a stream_error naming its code; a stream without a terminal event is interrupted", async () => {
  await using model = startFakeModel([
    { streamError: { message: "Boom", code: "server_error" } },
    { text: "cut", omitDone: true },
  ]);
  const client = createClient({ api: "responses", baseUrl: model.url });
  const call = () => client.stream(request([{ role: "user", content: "go" }]), never, () => {});
  const failed = await call().catch((e) => e);
  assert(failed instanceof LlmError);
  assertEquals([failed.kind, failed.retryable], ["stream_error", true]);
  assertMatch(failed.message, /Boom \(server_error\)/);
  assert(((e: unknown) => e instanceof LlmError && e.kind === "interrupted")(await assertRejects(call)));
});

Deno.test("buildResponsesBody() declares a provider-run web_search as the Responses web_search tool", () => {
  const search = {
    name: "web_search",
    description: "d",
    parameters: { type: "object" },
    server: "web_search" as const,
  };
  const body = buildResponsesBody(request([{ role: "user", content: "x" }], { tools: [...TOOLS, search] }));
  assertEquals((body.tools as unknown[]).at(-1), { type: "web_search" });
  assertEquals((body.tools as unknown[]).length, 2);
});
