/**
 * The chat wire's reasoning rule over real HTTP: "auto" sends `reasoning_content` back only once the
 * conversation holds reasoning, and a 400 naming the field settles the rule for the rest of the session
 * (resent once); "always" and "never" never resend.
 */
import { assertEquals, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { createClient } from "../../src/llm/client.ts";
import type { ReasoningEcho } from "../../src/llm/chat_completions.ts";
import { LlmError, type Message } from "../../src/llm/types.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import type { ReasoningRule } from "../support/_fake_model_wire.ts";

/** A finished tool step: the call (with `reasoning`, if any) and its result. */
function step(id: string, reasoning?: string): Message[] {
  return [
    { role: "assistant", content: "", reasoning, toolCalls: [{ id, name: "list_dir", arguments: "{}" }] },
    { role: "tool", toolCallId: id, name: "list_dir", content: "a.ts", isError: false },
  ];
}

/** Streams two requests over one client against a fake with `rule`; returns what each POST carried. */
async function session(rule: ReasoningRule, echo: ReasoningEcho | undefined, history: Message[]) {
  await using model = await startFakeModel(() => ({ text: "done" }), { reasoning: rule });
  const client = createClient({ api: "chat", baseUrl: model.url, reasoningEcho: echo });
  const messages: Message[] = [{ role: "user", content: "look" }, ...history];
  const signal = new AbortController().signal;
  for (const _ of [1, 2]) {
    const turn = await client.stream({ model: "m", messages, tools: [] }, signal, () => {});
    assertStrictEquals(turn.text, "done");
  }
  return model.requests.map((body) =>
    (body.messages as Record<string, unknown>[]).filter((m) => m.tool_calls).map((m) => m.reasoning_content)
  );
}

Deno.test("auto: a server that wants reasoning_content even after an empty reasoning gets it, non-empty, from the 400 on", async () => {
  // The first POST lacks the field, the 400 names it, the same request goes again with " " (Kimi reads ""
  // as missing) and the rule holds for the next call: three POSTs for two calls.
  assertEquals(await session("required", undefined, step("c1")), [[undefined], [" "], [" "]]);
});

Deno.test("auto: a server that refuses reasoning_content loses it after one 400 and keeps it off", async () => {
  assertEquals(await session("rejected", "auto", step("c1", "think")), [["think"], [undefined], [undefined]]);
});

Deno.test("auto: a thinking server gets the reasoning back at once, ' ' on a step without; no resend", async () => {
  const history = [...step("c1", "think"), ...step("c2")];
  assertEquals(await session("thinking", "auto", history), [["think", " "], ["think", " "]]);
});

Deno.test("auto: a server that never reasons never sees the field", async () => {
  assertEquals(await session("thinking", "auto", [...step("c1"), ...step("c2")]), [
    [undefined, undefined],
    [undefined, undefined],
  ]);
});

Deno.test("always and never keep their rule: a 400 naming reasoning_content is the user's error, sent once", async () => {
  for (const [rule, echo] of [["rejected", "always"], ["required", "never"]] as const) {
    await using model = await startFakeModel(() => ({ text: "done" }), { reasoning: rule });
    const client = createClient({ api: "chat", baseUrl: model.url, reasoningEcho: echo });
    const request = {
      model: "m",
      messages: [{ role: "user" as const, content: "x" }, ...step("c1")],
      tools: [],
    };
    const error = await assertRejects(
      () => client.stream(request, new AbortController().signal, () => {}),
      LlmError,
      "reasoning_content",
    );
    assertStrictEquals(error.status, 400);
    assertStrictEquals(model.requests.length, 1, echo);
  }
});

Deno.test("auto: a 400 about something else is not resent", async () => {
  await using model = await startFakeModel([{ status: 400, errorBody: '{"error":{"message":"bad model"}}' }]);
  const client = createClient({ api: "chat", baseUrl: model.url });
  await assertRejects(
    () =>
      client.stream(
        { model: "m", messages: [{ role: "user", content: "x" }], tools: [] },
        AbortSignal.any([]),
        () => {},
      ),
    LlmError,
    "bad model",
  );
  assertStrictEquals(model.requests.length, 1);
});

Deno.test("always: a strict server that reads '' as missing takes a step without reasoning at once", async () => {
  assertEquals(await session("required", "always", [...step("c1"), ...step("c2", "think")]), [
    [" ", "think"],
    [" ", "think"],
  ]);
});
