import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { Conversation } from "../../../src/agent/log/conversation.ts";
import { fitRequest } from "../../../src/agent/loop/context_fit.ts";
import type { AgentEvent } from "../../../src/agent/events.ts";
import { RequestGauge } from "../../../src/agent/loop/request_gauge.ts";
import { summariseConversation } from "../../../src/agent/log/summarise.ts";
import { createClient } from "../../../src/llm/client.ts";
import { readInspection, type Tool } from "../../../src/tools/tool.ts";
import { type ScriptedTurn, startFakeModel } from "../../support/fake_model_server.ts";
import { testSession } from "../../support/session.ts";
import { tempProject } from "../../support/temp_project.ts";

const bodyBytes = (body: Record<string, unknown>) => new TextEncoder().encode(JSON.stringify(body)).length;
const isSummary = (body: Record<string, unknown>) =>
  JSON.stringify(body).includes("You summarise a coding agent's conversation");
const lastRole = (body: Record<string, unknown>) => (body.messages as { role: string }[]).at(-1)?.role;
const notices = (events: AgentEvent[]) => events.flatMap((e) => e.type === "notice" ? [e.message] : []);

/** A tool that returns `text` whole: 200 KB of it goes through the registry's spill like any tool's. */
function dumpTool(text: string): Tool {
  return {
    name: "dump",
    description: "Dump the data set.",
    parameters: { type: "object", properties: {} },
    inspect: () => Promise.resolve(readInspection([])),
    run: () => Promise.resolve(text),
  };
}

Deno.test("a single 200 KB tool result in a 4000-token window is cut to fit, the note naming the full output", async () => {
  await using project = await tempProject({});
  const data = Array.from({ length: 4_000 }, (_, i) => `record ${i}: ${"v".repeat(40)}`).join("\n");
  assert(data.length >= 200_000);
  await using model = startFakeModel((body) =>
    lastRole(body) === "tool" ? { text: "Seen it." } : { toolCalls: [{ name: "dump", arguments: "{}" }] }
  );
  const session = await testSession(project.root, {
    contextWindow: 4_000,
    extraTools: () => [dumpTool(data)],
    config: { baseUrl: model.url, provider: "custom", label: "custom", model: "fake-model" },
  });
  const events: AgentEvent[] = [];
  const result = await session.run("dump the data", { onEvent: (event) => events.push(event) });
  assertEquals([result.exitReason, result.text], ["done", "Seen it."]);
  const sizes = model.requests.map(bodyBytes);
  assert(sizes.every((bytes) => bytes <= 4_000 * 4), `request sizes: ${sizes.join(", ")}`);
  const shown = (model.requests[1].messages as { content: string }[]).at(-1)!.content;
  // The registry saved the 200 KB; the cut view points there (its head starts with the registry's own note).
  const saved = shown.match(
    /the whole output is in (\.tern\/tool-outputs\/\S+\.txt): read it with read_file \(/,
  );
  assert(saved, shown.slice(0, 400));
  assertEquals(await Deno.readTextFile(`${project.root}/${saved[1]}`), data);
  assertStringIncludes(shown, "record 0: ");
  assert(
    notices(events).some((n) => n.startsWith("Context: cut the output of dump to fit the context window")),
  );
  // The log keeps the registry's view whole: only requests see the cut.
  const entry = session.entries.find((e) => e.kind === "tool_result");
  assert(entry?.kind === "tool_result" && entry.content.length > 20_000);
});

Deno.test("a provider counting two bytes a token makes compaction act earlier: each request fits by its count", async () => {
  await using project = await tempProject({});
  let answers = 0;
  // The fake's tokenizer: two bytes a token, reported as usage for the very request it answers.
  await using model = startFakeModel((body): ScriptedTurn => {
    const usage = { prompt_tokens: Math.ceil(bodyBytes(body) / 2), completion_tokens: 700 };
    if (isSummary(body)) return { text: "## Goal\nanswer questions", usage };
    return { text: `answer ${++answers}: ${"words and more words. ".repeat(140)}`, usage };
  });
  const window = 6_000;
  const session = await testSession(project.root, {
    contextWindow: window,
    config: { baseUrl: model.url, provider: "custom", label: "custom", model: "fake-model" },
  });
  for (let i = 1; i <= 5; i++) assertEquals((await session.run(`question ${i}`)).exitReason, "done");
  const counted = model.requests.map((body) => Math.ceil(bodyBytes(body) / 2));
  assert(
    counted.every((tokens) => tokens <= window),
    `tokens by the provider's count: ${counted.join(", ")}`,
  );
  assert(model.requests.some(isSummary), "a summary was made");
  assert(Math.max(...model.requests.map(bodyBytes)) <= 0.8 * window * 2, "uncalibrated, it would pass 80 %");
  assertEquals(session.context().calibrated, true);
});

Deno.test("fitRequest() leaves a request under 80% of the window as it is and logs nothing", async () => {
  await using model = startFakeModel([]);
  const client = createClient({ api: "chat", baseUrl: model.url });
  const conversation = new Conversation({ systemPrompt: "s" });
  conversation.append({ kind: "user", text: "hello" });
  const events: AgentEvent[] = [];
  const fitted = await fitRequest(conversation, { model: "m", tools: [] }, {
    client,
    model: "m",
    contextWindow: 4_000,
    gauge: new RequestGauge(client),
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
  });
  assertEquals(fitted.request.messages, conversation.messages());
  assertEquals(fitted.size.bytes, client.requestBytes(fitted.request));
  assertEquals([conversation.entries.length, events.length, model.requests.length], [1, 0, 0]);
});

Deno.test("the summary request itself fits the window, however long the conversation it condenses", async () => {
  await using model = startFakeModel([{ text: "## Goal\nkeep going" }]);
  const conversation = new Conversation({ systemPrompt: "s" });
  for (let i = 0; i < 40; i++) {
    conversation.append({ kind: "user", text: `question ${i} ${"context ".repeat(300)}` });
    conversation.append({
      kind: "assistant",
      message: { role: "assistant", content: "answer ".repeat(300) },
    });
  }
  conversation.append({ kind: "user", text: "and now?" });
  const client = createClient({ api: "chat", baseUrl: model.url });
  const done = await summariseConversation(conversation, {
    client,
    model: "m",
    signal: new AbortController().signal,
    contextWindow: 4_000,
  });
  assert(done !== null && done.tokensAfter < 0.8 * 4_000, JSON.stringify(done));
  assert(bodyBytes(model.requests[0]) <= 0.8 * 4_000 * 4, `${bodyBytes(model.requests[0])} bytes`);
  assertStringIncludes(JSON.stringify(model.requests[0]), "Keep the summary under 300 words.");
});

Deno.test("a task whose summary fails and that cannot fit stops as context_full without sending it", async () => {
  await using project = await tempProject({});
  const answer = "long answer ".repeat(1_000);
  await using model = startFakeModel((body) => isSummary(body) ? { status: 400 } : { text: answer });
  const session = await testSession(project.root, {
    config: { baseUrl: model.url, provider: "custom", label: "custom", model: "fake-model" },
  });
  for (let i = 0; i < 3; i++) await session.run(`question ${i}`);
  const sent = model.requests.length;
  await session.switchModel({ model: "moonshot-v1-8k" }); // same endpoint, an 8,192-token window
  const events: AgentEvent[] = [];
  const result = await session.run("one more", { onEvent: (event) => events.push(event) });
  assertEquals(result.exitReason, "context_full");
  assertStringIncludes(result.error ?? "", "moonshot-v1-8k's window holds 8,192");
  assert(notices(events).some((n) => n.startsWith("Context: the summary failed")));
  const tried = model.requests.slice(sent);
  assert(tried.length > 0 && tried.every(isSummary), "only summary calls were made after the switch");
  assert(tried.every((body) => bodyBytes(body) <= 8_192 * 4));
});
