import { assertMatch, assertStrictEquals, assertThrows } from "../support/assert.ts";
import { createClient } from "../../src/llm/client.ts";
import type { StreamEvent } from "../../src/llm/types.ts";
import { startFakeModel } from "../support/fake_model_server.ts";

Deno.test("createClient() speaks chat completions for api chat, with the bearer key", async () => {
  await using model = startFakeModel([{ text: "hello" }]);
  const client = createClient({ api: "chat", baseUrl: model.url, apiKey: "sk-1" });
  const events: StreamEvent[] = [];
  const turn = await client.stream(
    { model: "m", messages: [{ role: "user", content: "hi" }], tools: [] },
    new AbortController().signal,
    (e) => events.push(e),
  );
  assertStrictEquals(turn.text, "hello");
  assertStrictEquals(turn.finishReason, "stop");
  assertStrictEquals(events.map((e) => e.type === "text_delta" ? e.text : "").join(""), "hello");
  assertStrictEquals(model.requests.length, 1);
});

Deno.test("createClient() refuses an unknown wire format, naming the known ones", () => {
  assertMatch(
    String(assertThrows( // A word from an untyped source (a settings file, an old session) must still fail in words.
      () => createClient({ api: "grpc" as unknown as "chat", baseUrl: "http://127.0.0.1:9" }),
    )),
    /unknown wire format 'grpc' \(known: chat, responses, anthropic\)/,
  );
});

Deno.test("requestBytes() measures the body stream() then sends, for a copy of the request or another model", async () => {
  await using model = startFakeModel([{ text: "one" }, { text: "two" }]);
  const client = createClient({ api: "chat", baseUrl: model.url, apiKey: "sk-1" });
  const request = { model: "m", messages: [{ role: "user" as const, content: "héllo ✓" }], tools: [] };
  const sent = () => new TextEncoder().encode(JSON.stringify(model.requests.at(-1))).length;
  const measured = client.requestBytes(request);
  await client.stream({ ...request }, new AbortController().signal, () => {});
  assertStrictEquals(sent(), measured);
  // Measured for one model, sent for another (a fallback): the body is built afresh, not the measured one.
  client.requestBytes(request);
  await client.stream({ ...request, model: "other" }, new AbortController().signal, () => {});
  assertStrictEquals(model.requests.at(-1)?.model, "other");
});
