import { assert, assertEquals } from "../../support/assert.ts";
import { RequestGauge } from "../../../src/agent/loop/request_gauge.ts";
import { createClient } from "../../../src/llm/client.ts";
import { utf8Length } from "../../../src/llm/transport.ts";
import { type ChatRequest, IMAGE_TOKENS, type Usage } from "../../../src/llm/types.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";

/** A request with what each wire serialises differently: system, tools, a call with reasoning, a result. */
const REQUEST: ChatRequest = {
  model: "fake-model",
  tools: [{ name: "read_file", description: "Read a file.", parameters: { type: "object", properties: {} } }],
  messages: [
    { role: "system", content: "You are tern. ünïcödé and 🦊 cost more bytes than characters." },
    { role: "user", content: 'read a.txt\n\t"quoted"' },
    {
      role: "assistant",
      content: "",
      reasoning: "look first",
      toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' }],
    },
    { role: "tool", toolCallId: "call_1", name: "read_file", content: "1\tone\n2\ttwo", isError: false },
  ],
};

const usage = (promptTokens: number): Usage => ({
  promptTokens,
  completionTokens: 1,
  totalTokens: promptTokens + 1,
});

for (const api of ["chat", "anthropic", "responses"] as const) {
  Deno.test(`RequestGauge.measure() counts exactly the bytes the ${api} wire sends`, async () => {
    await using model = startFakeModel([{ text: "ok" }]);
    const client = createClient({ api, baseUrl: api === "anthropic" ? model.root : model.url, apiKey: "k" });
    const gauge = new RequestGauge(client);
    const measured = gauge.measure(REQUEST);
    await client.stream(REQUEST, new AbortController().signal, () => {});
    const sent = new TextEncoder().encode(JSON.stringify(model.requests[0])).length;
    assertEquals(measured, { bytes: sent, tokens: Math.ceil(sent / 4) });
  });
}

Deno.test("utf8Length() agrees with TextEncoder on ASCII, accents, CJK and surrogate pairs", () => {
  for (const text of ["", "plain", "ünïcödé", "漢字かな", "🦊 and 🧪", "mixed é 字 🦊 end"]) {
    assertEquals(utf8Length(text), new TextEncoder().encode(text).length, text);
  }
});

Deno.test("calibrate() raises the estimate when the provider counts more tokens than bytes / 4", async () => {
  await using model = startFakeModel([]);
  const gauge = new RequestGauge(createClient({ api: "chat", baseUrl: model.url }));
  const { bytes, tokens } = gauge.measure(REQUEST);
  assertEquals([gauge.calibrated, tokens], [false, Math.ceil(bytes / 4)]);
  gauge.calibrate({ bytes: bytes, tokens: 0 }, usage(Math.ceil(bytes / 2)));
  assert(gauge.calibrated);
  assertEquals(gauge.measure(REQUEST).tokens, Math.ceil(bytes / 2));
});

Deno.test("calibrate() never goes below bytes / 4 nor above a token a byte, and ignores a missing usage", async () => {
  await using model = startFakeModel([]);
  const gauge = new RequestGauge(createClient({ api: "chat", baseUrl: model.url }));
  const { bytes } = gauge.measure(REQUEST);
  gauge.calibrate({ bytes: bytes, tokens: 0 }, usage(100)); // the fake's made-up count: far fewer than bytes / 4
  gauge.calibrate({ bytes: bytes, tokens: 0 }, undefined);
  gauge.calibrate({ bytes: 0, tokens: 0 }, usage(5));
  gauge.calibrate({ bytes: bytes, tokens: 0 }, usage(0));
  assertEquals([gauge.calibrated, gauge.measure(REQUEST).tokens], [false, Math.ceil(bytes / 4)]);
  gauge.calibrate({ bytes: bytes, tokens: 0 }, usage(bytes * 3));
  assertEquals(gauge.measure(REQUEST).tokens, bytes);
  gauge.calibrate({ bytes: bytes, tokens: 0 }, usage(Math.ceil(bytes / 3)));
  assertEquals(gauge.tokensPerByte, Math.ceil(bytes / 3) / bytes, "the latest count is the one used");
});

Deno.test("measure() counts an image as IMAGE_TOKENS, not its base64 bytes, and calibration leaves it out", async () => {
  await using model = startFakeModel([]);
  const gauge = new RequestGauge(createClient({ api: "anthropic", baseUrl: model.root }));
  const image = { mediaType: "image/png" as const, data: "A".repeat(2_000_000), name: "shot.png" };
  const withImage = {
    ...REQUEST,
    messages: [...REQUEST.messages, { role: "user" as const, content: "look", images: [image] }],
  };
  const without = gauge.measure({
    ...REQUEST,
    messages: [...REQUEST.messages, { role: "user", content: "look" }],
  });
  const size = gauge.measure(withImage);
  assert(size.bytes > 2_000_000);
  assertEquals(size.images, { count: 1, bytes: 2_000_000 });
  assert(Math.abs(size.tokens - (without.tokens + IMAGE_TOKENS)) < 50, `${size.tokens} vs ${without.tokens}`);
  // A provider that counted the text at two bytes a token plus the image: the rate comes from the text alone.
  const textBytes = size.bytes - 2_000_000;
  gauge.calibrate(size, usage(Math.ceil(textBytes / 2) + IMAGE_TOKENS));
  assertEquals(gauge.tokensPerByte, Math.ceil(textBytes / 2) / textBytes);
});
