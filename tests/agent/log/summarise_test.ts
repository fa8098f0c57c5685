import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { callModel, type CallState } from "../../../src/agent/loop/model_call.ts";
import type { AgentEvent } from "../../../src/agent/events.ts";
import { estimateTokens } from "../../../src/agent/log/compact.ts";
import { Conversation, SUMMARY_PREFIX } from "../../../src/agent/log/conversation.ts";
import { summariseConversation, SUMMARY_SYSTEM } from "../../../src/agent/log/summarise.ts";
import { createClient } from "../../../src/llm/client.ts";
import type { Message } from "../../../src/llm/types.ts";
import { type ScriptedTurn, startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

type Body = { messages: { role: string; content: string }[] };
const isSummaryRequest = (body: Record<string, unknown>) =>
  (body as Body).messages[0].content === SUMMARY_SYSTEM;

/** A task of `steps` steps, each with a long answer text (which compaction cannot drop) and a call. */
function chatty(steps: number): Conversation {
  const conversation = new Conversation({ systemPrompt: "sys" });
  conversation.append({ kind: "user", text: "the task" });
  for (let i = 0; i < steps; i++) {
    const toolCalls = [{ id: `c${i}`, name: "list_dir", arguments: "{}" }];
    conversation.append({
      kind: "assistant",
      message: { role: "assistant", content: `step ${i} `.repeat(300), reasoning: "r", toolCalls },
    });
    conversation.append({
      kind: "tool_result",
      callId: `c${i}`,
      name: "list_dir",
      content: "a\nb",
      isError: false,
    });
  }
  return conversation;
}

Deno.test("summariseConversation() keeps the latest step, sends the task verbatim, and fits the window", async () => {
  await using model = startFakeModel([{ text: "## Goal: list things" }]);
  const conversation = chatty(6);
  const done = await summariseConversation(conversation, {
    client: createClient({ api: "chat", baseUrl: model.url, apiKey: "k" }),
    model: "fake",
    signal: new AbortController().signal,
    contextWindow: 4000,
  });
  assert(done !== null);
  const messages = conversation.messages();
  assertEquals(messages[1].role, "user");
  assertStringIncludes(messages[1].content, `${SUMMARY_PREFIX}\n\n## Goal: list things`);
  assertStringIncludes(messages[1].content, "The user's current request, verbatim:\nthe task");
  assertEquals(messages.at(-1)?.role, "tool"); // the latest step and its result stay paired
  assert(estimateTokens(messages) < 0.8 * 4000, `${estimateTokens(messages)} tokens`);
  const sent = (model.requests[0] as Body).messages;
  assertEquals(model.requests[0].tools, undefined);
  assertStringIncludes(sent[1].content, "CALL list_dir({})");
});

Deno.test("callModel() falls back to dropped outputs when the summary call fails, and says so", async () => {
  await using model = startFakeModel((body) => isSummaryRequest(body) ? { status: 400 } : { text: "ok" });
  const events: AgentEvent[] = [];
  const conversation = chatty(6);
  const state: CallState = {
    turns: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    shown: "",
  };
  const turn = await callModel(conversation, [], state, {
    client: createClient({ api: "chat", baseUrl: model.url, apiKey: "k" }),
    model: "fake",
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    contextWindow: 4000,
    retry: { sleep: () => Promise.resolve() },
  });
  assertEquals(turn.text, "ok");
  const warned = events.find((event) => event.type === "notice" && event.level === "warn");
  assertStringIncludes(warned?.type === "notice" ? warned.message : "", "the summary failed");
  assertEquals(conversation.entries.some((entry) => entry.kind === "summary"), false);
});

Deno.test("tern -p past 80% of a small --context-window summarises, keeps working and stays under it", async () => {
  const files = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`f${n}.txt`, `file ${n}\n`]));
  await using project = await tempProject(files);
  let step = 0;
  const turns = (body: Record<string, unknown>): ScriptedTurn => {
    if (isSummaryRequest(body)) return { text: "## Goal: read the files\n## Open tasks: finish" };
    step++;
    if (step > 8) return { text: "All done." };
    return {
      text: `Thinking about step ${step}. `.repeat(60),
      toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: `f${step}.txt` }) }],
    };
  };
  await using model = startFakeModel(turns);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "read every file", "--context-window", "3000", "--output", "json"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(JSON.parse(run.stdout).result, "All done.");
  assertStringIncludes(run.stderr, "Context: summarised");
  const task = model.requests.filter((body) => !isSummaryRequest(body));
  const last = (task.at(-1) as Body).messages;
  assertStringIncludes(last[1].content, SUMMARY_PREFIX);
  for (const body of task) {
    assert(estimateTokens((body as Body).messages as Message[]) < 3000, "every request fits the window");
  }
});
