import assert from "node:assert/strict";
import { buildRequestBody, providerMessage, toWireMessage } from "../../src/llm/chat_completions.ts";
import type { ChatRequest, ToolSpec } from "../../src/llm/types.ts";

const schema = { type: "object", properties: {} };
const tool = (name: string): ToolSpec => ({ name, description: `${name} does things`, parameters: schema });

Deno.test("buildRequestBody() asks for a stream with usage and sorts tools by name", () => {
  const request: ChatRequest = {
    model: "deepseek-chat",
    messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }],
    tools: [tool("write_file"), tool("Zed"), tool("read_file"), tool("edit_file")],
  };
  assert.deepEqual(buildRequestBody(request), {
    model: "deepseek-chat",
    messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }],
    stream: true,
    stream_options: { include_usage: true },
    tools: ["Zed", "edit_file", "read_file", "write_file"].map((name) => ({
      type: "function",
      function: { name, description: `${name} does things`, parameters: schema },
    })),
  });
  assert.deepEqual(
    request.tools.map((t) => t.name),
    ["write_file", "Zed", "read_file", "edit_file"],
    "not mutated",
  );
});

Deno.test("buildRequestBody() omits tools when there are none and passes max_tokens and temperature", () => {
  const body = buildRequestBody({ model: "m", messages: [], tools: [], maxTokens: 512, temperature: 0 });
  assert.equal("tools" in body, false);
  assert.equal(body.max_tokens, 512);
  assert.equal(body.temperature, 0);
});

Deno.test("toWireMessage() sends tool calls with reasoning_content, empty when no reasoning was kept", () => {
  const call = { id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' };
  const wireCall = {
    id: "call_1",
    type: "function",
    function: { name: "read_file", arguments: '{"path":"a.ts"}' },
  };
  assert.deepEqual(
    toWireMessage({ role: "assistant", content: "", reasoning: "look first", toolCalls: [call] }),
    {
      role: "assistant",
      content: "",
      reasoning_content: "look first",
      tool_calls: [wireCall],
    },
  );
  assert.deepEqual(toWireMessage({ role: "assistant", content: "ok", toolCalls: [call] }), {
    role: "assistant",
    content: "ok",
    reasoning_content: "",
    tool_calls: [wireCall],
  });
});

Deno.test("toWireMessage() sends a plain assistant answer without reasoning", () => {
  assert.deepEqual(toWireMessage({ role: "assistant", content: "done", reasoning: "secret" }), {
    role: "assistant",
    content: "done",
  });
  assert.deepEqual(toWireMessage({ role: "assistant", content: "done", reasoning: "r", toolCalls: [] }), {
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
  assert.deepEqual(toWireMessage(message), { role: "tool", tool_call_id: "call_1", content: "1 line" });
});

Deno.test("providerMessage() extracts the provider's words from JSON and text error bodies", () => {
  assert.equal(providerMessage('{"error":{"message":"Invalid API key","type":"auth"}}'), "Invalid API key");
  assert.equal(providerMessage('{"error":"model not found"}'), "model not found");
  assert.equal(providerMessage('{"message":"Rate limited"}'), "Rate limited");
  assert.equal(providerMessage('{"detail":"Not Found"}'), "Not Found");
  assert.equal(providerMessage("  <html>\n  Bad   Gateway </html>\n"), "<html> Bad Gateway </html>");
  assert.equal(providerMessage(""), "");
  const long = providerMessage("x".repeat(1000));
  assert.equal(long.length, 300);
  assert.ok(long.endsWith("…"));
});
