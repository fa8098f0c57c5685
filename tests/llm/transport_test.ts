import { assert, assertEquals, assertMatch, assertStrictEquals, fail } from "../support/assert.ts";
import { createClient } from "../../src/llm/client.ts";
import { providerMessage, WireClient } from "../../src/llm/transport.ts";
import type { SseEvent } from "../../src/llm/sse.ts";
import type { Wire } from "../../src/llm/wire.ts";
import { eventually } from "../support/processes.ts";
import { type ChatRequest, LlmError, type Message, type StreamEvent } from "../../src/llm/types.ts";
import {
  type FakeModel,
  replayChunks,
  type ScriptedTurn,
  startFakeModel,
} from "../support/fake_model_server.ts";

const USER: ChatRequest = { model: "fake", messages: [{ role: "user", content: "hi" }], tools: [] };

/** Streams one request against a fresh fake model scripted with `turn`. */
async function once(
  turn: ScriptedTurn,
  options: { request?: ChatRequest; signal?: AbortSignal; onEvent?: (e: StreamEvent) => void } = {},
) {
  await using model = startFakeModel([turn]);
  const client = createClient({ api: "chat", baseUrl: model.url, apiKey: "sk-test" });
  const events: StreamEvent[] = [];
  const turnOut = await client.stream(
    options.request ?? USER,
    options.signal ?? new AbortController().signal,
    (e) => {
      events.push(e);
      options.onEvent?.(e);
    },
  );
  return { turn: turnOut, events, requests: model.requests };
}

/** Runs `fn` and returns the LlmError it rejects with. */
async function llmError(fn: () => Promise<unknown>): Promise<LlmError> {
  try {
    await fn();
  } catch (error) {
    assert(error instanceof LlmError, `expected an LlmError, got ${error}`);
    assert(!error.message.includes("    at "), "no stack trace in the message");
    return error;
  }
  throw new Error("expected a rejection");
}

Deno.test("a chat client streams reasoning, text and fragmented tool calls into one turn", async () => {
  const { turn, events } = await once({
    reasoning: "Let me look.",
    text: "Reading it.",
    toolCalls: [{ id: "call_x", name: "read_file", arguments: '{"path":"src/main.ts"}' }, {
      name: "list_dir",
      arguments: "{}",
    }],
    usage: { prompt_tokens: 50, completion_tokens: 12 },
    chunkSize: 3,
  });
  assertEquals(turn, {
    text: "Reading it.",
    reasoning: "Let me look.",
    toolCalls: [
      { id: "call_x", name: "read_file", arguments: '{"path":"src/main.ts"}' },
      { id: "call_0_1", name: "list_dir", arguments: "{}" },
    ],
    finishReason: "tool_calls",
    usage: { promptTokens: 50, completionTokens: 12, totalTokens: 62 },
    model: "fake",
  });
  assertStrictEquals(events[0].type, "reasoning_delta");
  // The calls arrive whole in the turn: the deltas are the reasoning and the text, nothing else.
  assertEquals(events.map((e) => e.text).join(""), "Let me look.Reading it.");
});

Deno.test("a chat client sends sorted tools, and tool-call history without empty content or reasoning", async () => {
  const history: Message[] = [
    { role: "user", content: "look" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "b_tool", arguments: "{}" }] },
    { role: "tool", toolCallId: "c1", name: "b_tool", content: "ok", isError: false },
  ];
  const request: ChatRequest = {
    model: "fake",
    messages: history,
    tools: ["b_tool", "a_tool"].map((name) => ({ name, description: "d", parameters: { type: "object" } })),
  };
  const { requests } = await once({ text: "done" }, { request });
  const body = requests[0] as {
    tools: { function: { name: string } }[];
    messages: Record<string, unknown>[];
  };
  assertEquals(body.tools.map((t) => t.function.name), ["a_tool", "b_tool"]);
  assertEquals(body.messages[1], {
    role: "assistant",
    tool_calls: [{ id: "c1", type: "function", function: { name: "b_tool", arguments: "{}" } }],
  });
  assertStrictEquals((requests[0] as { stream: boolean }).stream, true);
});

Deno.test("a chat client reports HTTP 401 with the provider's message and no retry", async () => {
  const errorBody = JSON.stringify({ error: { message: "Invalid API key", type: "invalid_request_error" } });
  await using model = startFakeModel([{ status: 401, errorBody }]);
  const client = createClient({ api: "chat", baseUrl: `${model.url}//` });
  const error = await llmError(() => client.stream(USER, new AbortController().signal, () => {}));
  assertStrictEquals(error.kind, "http");
  assertStrictEquals(error.status, 401);
  assertStrictEquals(error.message, `HTTP 401 from ${model.url}: Invalid API key`);
  assertStrictEquals(error.retryable, false);
});

Deno.test("a chat client keeps Retry-After of a 429 and marks it retryable", async () => {
  await using model = startFakeModel([{ status: 429, retryAfter: "7", errorBody: "slow down\n" }]);
  const client = createClient({ api: "chat", baseUrl: model.url });
  const error = await llmError(() => client.stream(USER, new AbortController().signal, () => {}));
  assertStrictEquals(error.kind, "http");
  assertStrictEquals(error.status, 429);
  assertStrictEquals(error.retryAfter, "7");
  assertStrictEquals(error.message, `HTTP 429 from ${model.url}: slow down`);
  assertStrictEquals(error.retryable, true);
});

Deno.test("a chat client reports a cut stream as interrupted, partial only after visible output", async () => {
  const afterText = await llmError(() =>
    once({ text: "Hello there, friend", chunkSize: 2, cutAfterChunks: 3 })
  );
  assertStrictEquals(afterText.kind, "interrupted");
  assertStrictEquals(afterText.partialOutput, true);
  assertStrictEquals(afterText.retryable, true);
  const beforeText = await llmError(() => once({ text: "Hello", cutAfterChunks: 1 }));
  assertStrictEquals(beforeText.kind, "interrupted");
  assertStrictEquals(beforeText.partialOutput, false);
  assertMatch(beforeText.message, /ended after 1 chunk\(s\) without \[DONE\] or a finish_reason/);
});

Deno.test("a chat client turns an in-stream error object into stream_error", async () => {
  const error = await llmError(() =>
    once({ text: "Part", streamError: { message: "Upstream overloaded", type: "server_error", code: 529 } })
  );
  assertStrictEquals(error.kind, "stream_error");
  assertMatch(
    error.message,
    /^Stream error from http:\/\/127\.0\.0\.1:\d+\/v1: Upstream overloaded \(server_error, 529\)$/,
  );
  assertStrictEquals(error.partialOutput, true);
});

Deno.test("a chat client completes on [DONE] when no finish_reason is sent, and on finish_reason alone", async () => {
  const noReason = await once({ toolCalls: [{ name: "f", arguments: "{}" }], finishReason: null });
  assertStrictEquals(noReason.turn.finishReason, "tool_calls");
  const noDone = await once({ text: "cut short", finishReason: "length", omitDone: true });
  assertStrictEquals(noDone.turn.finishReason, "length");
  assertStrictEquals(noDone.turn.text, "cut short");
});

Deno.test("a chat client stops promptly with aborted when the signal fires mid-stream", async () => {
  const controller = new AbortController();
  let deltas = 0;
  const error = await llmError(() =>
    once({ text: "a long answer that streams slowly", chunkSize: 1, chunkDelayMs: 100 }, {
      signal: controller.signal,
      onEvent: () => {
        deltas++;
        controller.abort();
      },
    })
  );
  assertStrictEquals(error.kind, "aborted");
  assertStrictEquals(error.partialOutput, true);
  assertStrictEquals(deltas, 1, "nothing more was delivered after the abort");
});

Deno.test("a chat client stops promptly with aborted while waiting for the response headers", async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  // The server would wait 10 minutes: the call can only end this test by honouring the abort.
  const error = await llmError(() => once({ text: "late", delayMs: 600_000 }, { signal: controller.signal }));
  assertStrictEquals(error.kind, "aborted");
  assertStrictEquals(error.partialOutput, false);
});

Deno.test("a chat client gives up with a network error when the headers or the data take too long", async () => {
  await using model = startFakeModel([{ text: "late", delayMs: 5_000 }, {
    text: "slow",
    chunkSize: 1,
    chunkDelayMs: 2_000,
  }]);
  const client = createClient({ api: "chat", baseUrl: model.url, fetchTimeoutMs: 100, idleTimeoutMs: 150 });
  const signal = new AbortController().signal;
  const headers = await llmError(() => client.stream(USER, signal, () => {}));
  assertStrictEquals(headers.kind, "network");
  assertStrictEquals(headers.message, `Could not reach ${model.url}: no response within 100 ms`);
  const idle = await llmError(() => client.stream(USER, signal, () => {}));
  assertStrictEquals(idle.kind, "network");
  assertStrictEquals(
    idle.message,
    `The connection to ${model.url} dropped mid-stream: no data within 150 ms`,
  );
  // A silent server is worth one more try, not six: each costs the whole wait.
  assertEquals([headers.retryOnce, idle.retryOnce], [true, true]);
});

Deno.test("a chat client reports an unreachable server as a network error in plain words", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const client = createClient({ api: "chat", baseUrl: `http://127.0.0.1:${port}/v1` });
  const error = await llmError(() => client.stream(USER, new AbortController().signal, () => {}));
  assertStrictEquals(error.kind, "network");
  assertMatch(
    error.message,
    new RegExp(`^Could not reach http://127\\.0\\.0\\.1:${port}/v1: .*refused`, "i"),
  );
  assertStrictEquals(error.retryable, true);
});

Deno.test("a chat client sends the bearer key only when one is given", async () => {
  const seen: (string | null)[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push(req.headers.get("authorization"));
    return new Response("data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
  });
  const url = `http://127.0.0.1:${server.addr.port}/v1`;
  const signal = new AbortController().signal;
  await createClient({ api: "chat", baseUrl: url, apiKey: "sk-1" }).stream(USER, signal, () => {});
  await createClient({ api: "chat", baseUrl: url, headers: { "x-extra": "1" } }).stream(
    USER,
    signal,
    () => {},
  );
  assertEquals(seen, ["Bearer sk-1", null]);
});

Deno.test("a chat client rejects a JSON answer to a streaming request as bad_response", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ choices: [{ message: { content: "not streamed" } }] }),
  );
  const client = createClient({ api: "chat", baseUrl: `http://127.0.0.1:${server.addr.port}/v1` });
  const error = await llmError(() => client.stream(USER, new AbortController().signal, () => {}));
  assertStrictEquals(error.kind, "bad_response");
  assertMatch(error.message, /did not stream/);
});

Deno.test("fake model answers bad tool-call history with HTTP 400 naming the problem", async () => {
  const unanswered: Message[] = [
    { role: "user", content: "go" },
    { role: "assistant", content: "", reasoning: "", toolCalls: [{ id: "c9", name: "f", arguments: "{}" }] },
    { role: "user", content: "and?" },
  ];
  const error = await llmError(() => once({ text: "never" }, { request: { ...USER, messages: unanswered } }));
  assertStrictEquals(error.kind, "http");
  assertStrictEquals(error.status, 400);
  assertMatch(error.message, /tool call\(s\) c9 have no result/);
});

Deno.test("fake model answers past the end of its script with HTTP 500 and a clear message", async () => {
  await using model = startFakeModel([{ text: "one" }]);
  const client = createClient({ api: "chat", baseUrl: model.url });
  const signal = new AbortController().signal;
  await client.stream(USER, signal, () => {});
  const error = await llmError(() => client.stream(USER, signal, () => {}));
  assertStrictEquals(error.status, 500);
  assertMatch(error.message, /script exhausted: request #2 arrived but only 1 turn\(s\) are scripted/);
  assertStrictEquals(model.requests.length, 2);
});

Deno.test("fake model lists a model on GET /v1/models", async () => {
  await using model = startFakeModel([]);
  const response = await fetch(`${model.url}/models`);
  const body = await response.json();
  assertStrictEquals(body.object, "list");
  assertStrictEquals(body.data[0].id, "fake-model");
});

Deno.test("closing the fake model aborts an in-flight stream and a pending delay", async () => {
  // Chosen by the user message, not by arrival order: the two requests race.
  const model: FakeModel = startFakeModel((body) =>
    JSON.stringify(body.messages).includes("stream")
      ? { text: "slow stream ".repeat(50), chunkSize: 1, chunkDelayMs: 200 }
      : { text: "x", delayMs: 600_000 }
  );
  const client = createClient({ api: "chat", baseUrl: model.url });
  const signal = new AbortController().signal;
  const ask = (content: string) => ({ ...USER, messages: [{ role: "user" as const, content }] });
  const streamed = Promise.withResolvers<void>();
  const streaming = llmError(() => client.stream(ask("stream"), signal, () => streamed.resolve()));
  const delayed = llmError(() => client.stream(ask("wait"), signal, () => {}));
  // Closed once text has arrived on one stream (about 2 minutes of it are left) and both requests are in.
  await streamed.promise;
  assert(await eventually(() => Promise.resolve(model.requests.length === 2)), "both requests arrived");
  await model.close();
  assertStrictEquals((await streaming).kind, "interrupted");
  assertStrictEquals((await delayed).kind, "http");
});

Deno.test("a chat client rejects a data line that is not JSON as bad_response", async () => {
  await using model = replayChunks([
    '{"choices":[{"index":0,"delta":{"content":"ok"}}]}',
    "<html>oops</html>",
  ]);
  const client = createClient({ api: "chat", baseUrl: model.url });
  const error = await llmError(() => client.stream(USER, new AbortController().signal, () => {}));
  assertStrictEquals(error.kind, "bad_response");
  assertStrictEquals(error.message, `${model.url} sent a stream event that is not JSON: <html>oops</html>`);
  assertStrictEquals(error.partialOutput, true);
});

Deno.test("providerMessage() extracts the provider's words from JSON and text error bodies", () => {
  assertStrictEquals(
    providerMessage('{"error":{"message":"Invalid API key","type":"auth"}}'),
    "Invalid API key",
  );
  assertStrictEquals(providerMessage('{"error":"model not found"}'), "model not found");
  assertStrictEquals(providerMessage('{"message":"Rate limited"}'), "Rate limited");
  assertStrictEquals(providerMessage('{"detail":"Not Found"}'), "Not Found");
  assertStrictEquals(providerMessage("  <html>\n  Bad   Gateway </html>\n"), "<html> Bad Gateway </html>");
  assertStrictEquals(providerMessage(""), "");
  const long = providerMessage("x".repeat(1000));
  assertStrictEquals(long.length, 300);
  assert(long.endsWith("…"));
});

/** A toy wire: names its own path and auth header, and turns each event name into text. */
const TOY_WIRE: Wire = {
  api: "anthropic",
  buildRequest: (request, auth) => ({
    path: "/toy/messages",
    headers: auth.apiKey ? { "x-api-key": auth.apiKey } : {} as Record<string, string>,
    body: { toy: request.model },
  }),
  createAssembler: () => {
    const seen: SseEvent[] = [];
    return {
      get ended() {
        return seen.some((e) => e.event === "stop");
      },
      get complete() {
        return this.ended;
      },
      hasOutput: false,
      push: (event) => (seen.push(event), [{ type: "text_delta", text: `${event.event}=${event.data};` }]),
      finish: () => ({
        text: seen.map((e) => e.event).join(","),
        reasoning: "",
        toolCalls: [],
        finishReason: "stop",
      }),
    };
  },
};

Deno.test("WireClient posts the wire's path, headers and body, and hands it named events until it ends", async () => {
  const seen: {
    path: string;
    key: string | null;
    auth: string | null;
    extra: string | null;
    body: string;
  }[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const [key, auth, extra] = ["x-api-key", "authorization", "x-extra"].map((h) => req.headers.get(h));
    seen.push({ path: pathname, key, auth, extra, body: await req.text() });
    const sse = "event: start\ndata: 1\n\ndata: 2\n\nevent: stop\ndata: 3\n\nevent: after\ndata: 4\n\n";
    return new Response(sse, { headers: { "content-type": "text/event-stream" } });
  });
  const client = new WireClient(TOY_WIRE, {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1/`,
    apiKey: "k",
    headers: { "x-extra": "e" },
  });
  const events: StreamEvent[] = [];
  const turn = await client.stream(USER, new AbortController().signal, (e) => events.push(e));
  assertEquals(seen, [{
    path: "/v1/toy/messages",
    key: "k",
    auth: null,
    extra: "e",
    body: '{"toy":"fake"}',
  }]);
  assertStrictEquals(turn.text, "start,message,stop");
  assertEquals(events.map((e) => e.type === "text_delta" && e.text), [
    "start=1;",
    "message=2;",
    "stop=3;",
  ]);
});

Deno.test("WireClient cuts the API key out of an error a provider echoes it in", async () => {
  await using model = startFakeModel([{
    status: 401,
    errorBody: '{"error":{"message":"invalid key sk-test-0123456789"}}',
  }]);
  const client = createClient({ api: "chat", baseUrl: model.url, apiKey: "sk-test-0123456789" });
  const error = await client.stream(USER, new AbortController().signal, () => {}).then(
    () => fail("expected a rejection"),
    (e) => e,
  );
  assert(error instanceof LlmError);
  assertStrictEquals(error.status, 401);
  assertStrictEquals(error.message.includes("0123456789"), false, error.message);
  assertMatch(error.message, /invalid key \[redacted key\]/);
});

Deno.test("LlmError counts 529 and an in-stream overloaded error as worth another attempt", () => {
  assertStrictEquals(new LlmError("http", "HTTP 529", { status: 529 }).retryable, true);
  assertStrictEquals(
    new LlmError("stream_error", "Stream error: Overloaded (overloaded_error)").retryable,
    true,
  );
  assertStrictEquals(new LlmError("stream_error", "Stream error: invalid request").retryable, false);
});
