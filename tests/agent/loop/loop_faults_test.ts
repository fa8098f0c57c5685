/** runTask() under faults: interrupted streams, the runaway guard and budgets (model-call faults: model_call_test.ts). */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runTask } from "../../../src/agent/loop/loop.ts";
import type { AgentEvent } from "../../../src/agent/events.ts";
import { type AskHuman, createApprovalGate } from "../../../src/agent/policy/approval.ts";
import { RUNAWAY_REMINDER } from "../../../src/agent/loop/runaway.ts";
import type { Conversation } from "../../../src/agent/log/conversation.ts";
import { loopOptions, system } from "./_loop_fixtures.ts";
import type { Message } from "../../../src/llm/types.ts";
import { type ScriptedTurn, startFakeModel } from "../../support/fake_model_server.ts";

const echo = (text: string): ScriptedTurn => ({
  toolCalls: [{ name: "echo", arguments: `{"text":"${text}"}` }],
});
const notices = (events: AgentEvent[]) => events.flatMap((e) => e.type === "notice" ? [e.message] : []);
const toolMessages = (history: Conversation) =>
  history.messages().filter((m) => m.role === "tool") as Extract<Message, { role: "tool" }>[];

Deno.test("runTask() with the same tool call 6 times reminds once at 3, stops at 5 and asks for a report with the same tools", async () => {
  await using model = startFakeModel((_body, index) =>
    index < 5 ? echo("same") : { text: "Report: not done." }
  );
  const history = system();
  const opts = loopOptions(model);
  const result = await runTask(history, "go", opts);
  assertEquals([result.exitReason, result.partial, result.text], ["runaway", true, "Report: not done."]);
  assertEquals(result.turns, 5); // the report is not counted as a turn
  const tools = toolMessages(history);
  assertEquals(tools.length, 5);
  assertEquals(tools.map((m) => m.content.endsWith(RUNAWAY_REMINDER)), [false, false, true, false, false]);
  // The reminder sits outside the untrusted wrapper, in tern's voice.
  assert(tools[2].content.indexOf("</tool_result>") < tools[2].content.indexOf(RUNAWAY_REMINDER));
  const last = model.requests[5];
  // The tools of every request before (the prompt cache holds), though none can run any more.
  assertEquals(last.tools, model.requests[4].tools);
  const messages = last.messages as { role: string; content: string }[];
  assertStringIncludes(messages[messages.length - 1].content, "Do not claim the task is complete");
  assertEquals(notices(opts.events).filter((n) => n.startsWith("Reminded")).length, 1);
  assertEquals(opts.events.at(-1), {
    type: "final",
    text: "Report: not done.",
    exitReason: "runaway",
    partial: true,
  });
});

Deno.test("runTask() with an alternating pair of calls gives no reminder", async () => {
  await using model = startFakeModel((_body, index) =>
    index < 8 ? echo(index % 2 ? "a" : "b") : { text: "Done." }
  );
  const history = system();
  const opts = loopOptions(model);
  const result = await runTask(history, "go", opts);
  assertEquals(result.exitReason, "done");
  assert(toolMessages(history).every((m) => !m.content.includes(RUNAWAY_REMINDER)));
  assertEquals(notices(opts.events), []);
});

Deno.test("runTask() does not count denied calls toward the runaway guard", async () => {
  const note = { toolCalls: [{ name: "write_note", arguments: '{"text":"x"}' }] };
  await using model = startFakeModel((_body, index) => index < 6 ? note : { text: "Gave up." });
  const deny: AskHuman = () => Promise.resolve(false);
  const history = system();
  const result = await runTask(
    history,
    "go",
    loopOptions(model, { approve: createApprovalGate("ask", deny) }),
  );
  assertEquals(result.exitReason, "done");
  assert(toolMessages(history).every((m) => !m.content.includes(RUNAWAY_REMINDER)));
});

Deno.test("runTask() discards an answer cut after some text, says so and resends the request", async () => {
  await using model = startFakeModel([
    { text: "Half of it", cutAfterChunks: 3 },
    { text: "Whole answer." },
  ]);
  const history = system();
  const opts = loopOptions(model);
  const result = await runTask(history, "go", opts);
  assertEquals([result.exitReason, result.text], ["done", "Whole answer."]);
  const retry = opts.events.find((e) => e.type === "retry");
  assertEquals(retry && { reason: retry.reason, discarded: retry.discarded }, {
    reason: "stream interrupted",
    discarded: true,
  });
  assertEquals(history.messages().at(-1), { role: "assistant", content: "Whole answer." });
});

Deno.test("runTask() keeps text shown before a cut as an interrupted message and the next prompt works", async () => {
  await using model = startFakeModel([
    { text: "Half of it", cutAfterChunks: 3 },
    { text: "Next answer." },
  ]);
  const history = system();
  const noRetry = { retry: { maxAttempts: 1 } };
  const result = await runTask(history, "go", loopOptions(model, noRetry));
  assertEquals(result.exitReason, "error");
  assertEquals(result.text, "Half of ");
  assertStringIncludes(result.error ?? "", "interrupted");
  assertEquals(model.requests.length, 1);
  const kept = history.messages().at(-1)!;
  assertEquals(kept.role, "assistant");
  assert(kept.content.startsWith("Half of \n\n[interrupted: "), kept.content);
  assertEquals((await runTask(history, "again", loopOptions(model, noRetry))).text, "Next answer.");
});

Deno.test("runTask() stops at the token budget with a partial report", async () => {
  await using model = startFakeModel((body) =>
    body.tools
      ? { ...echo("x"), usage: { prompt_tokens: 400, completion_tokens: 100 } }
      : { text: "Partial report." }
  );
  const result = await runTask(system(), "go", loopOptions(model, { tokenBudget: 1000 }));
  assertEquals([result.exitReason, result.partial, result.text], ["token_budget", true, "Partial report."]);
  assertEquals(result.turns, 2);
});

Deno.test("runTask() stops at the time limit by the injected clock", async () => {
  let now = 0;
  await using model = startFakeModel((body) => {
    now += 40_000;
    return body.tools ? echo("x") : { text: "Out of time." };
  });
  const result = await runTask(system(), "go", loopOptions(model, { timeLimitMs: 60_000, now: () => now }));
  assertEquals([result.exitReason, result.text], ["time_budget", "Out of time."]);
  assertEquals(result.turns, 2);
});
