/** runTask(): the ReAct loop against the fake model server (faults: loop_faults_test.ts). */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { runTask } from "../../../src/agent/loop/loop.ts";
import type { Message } from "../../../src/llm/types.ts";
import { type ScriptedTurn, startFakeModel } from "../../support/fake_model_server.ts";
import { echoTool, loopOptions, system, writeCalls, writeTool } from "./_loop_fixtures.ts";
import { createRegistry } from "../../../src/tools/registry.ts";
import { Conversation } from "../../../src/agent/log/conversation.ts";
import { systemPrompt } from "../../../src/agent/prompt.ts";
import { FatalToolError, type Tool } from "../../../src/tools/tool.ts";

Deno.test("runTask() returns the text as the final answer when the model calls no tool", async () => {
  await using model = await startFakeModel([{
    text: "Hello!",
    usage: { prompt_tokens: 10, completion_tokens: 2 },
  }]);
  const history = system();
  const opts = loopOptions(model);
  const result = await runTask(history, "hi", opts);
  assertEquals(result.exitReason, "done");
  assertEquals(result.text, "Hello!");
  assertEquals(result.usage.promptTokens, 10);
  assertEquals(history.messages().slice(1), [{ role: "user", content: "hi" }, {
    role: "assistant",
    content: "Hello!",
  }]);
  const kinds = opts.events.map((event) => event.type).filter((type, i, all) => type !== all[i - 1]);
  assertEquals(kinds, ["model_start", "text_delta", "usage", "final"]);
  assertEquals(opts.events[0], { type: "model_start", turn: 1 });
  assertEquals(opts.events.at(-1), { type: "final", text: "Hello!", exitReason: "done", partial: false });
});

Deno.test("runTask() runs tool calls, wraps results as untrusted data, and goes on", async () => {
  await using model = await startFakeModel([
    { reasoning: "think", toolCalls: [{ name: "echo", arguments: '{"text":"a"}' }] },
    { text: "Done." },
  ]);
  const history = system();
  const opts = loopOptions(model);
  const result = await runTask(history, "go", opts);
  assertEquals(result.exitReason, "done");
  assertEquals(result.turns, 2);
  assertEquals(result.toolCalls, 1);
  const toolMessage = history.messages()[3] as Extract<Message, { role: "tool" }>;
  assertEquals(toolMessage.role, "tool");
  assertEquals(
    toolMessage.content,
    "<tool_result>echo: a</tool_result>",
  );
  const assistant = history.messages()[2] as Extract<Message, { role: "assistant" }>;
  assertEquals(assistant.reasoning, "think");
  const sent = (model.requests[1].messages as Record<string, unknown>[])[2];
  assertEquals(sent.reasoning_content, "think");
  const types = opts.events.map((event) => event.type);
  assert(types.indexOf("tool_call") < types.indexOf("tool_result"));
});

Deno.test("runTask() shows text that comes with tool calls and continues the loop", async () => {
  await using model = await startFakeModel([
    { text: "Let me check.", toolCalls: [{ name: "echo", arguments: '{"text":"x"}' }] },
    { text: "All good." },
  ]);
  const opts = loopOptions(model);
  const result = await runTask(system(), "go", opts);
  assertEquals(result.text, "All good.");
  const streamed = opts.events.filter((event) => event.type === "text_delta").map((event) => event.text).join(
    "",
  );
  assertEquals(streamed, "Let me check.All good.");
});

Deno.test("runTask() asks once more after an empty response, then reports it as an error", async () => {
  await using model = await startFakeModel(() => ({ text: "" }));
  const opts = loopOptions(model);
  const result = await runTask(system(), "go", opts);
  assertEquals(result.exitReason, "error");
  assertStringIncludes(result.error ?? "", "the model returned an empty response");
  assertEquals(model.requests.length, 2);
  assertEquals(opts.events.flatMap((e) => e.type === "retry" ? [e.reason] : []), ["empty answer"]);
});

Deno.test("runTask() takes the answer that follows one empty response", async () => {
  await using model = await startFakeModel([{ text: "", reasoning: "hmm" }, { text: "Here." }]);
  const result = await runTask(system(), "go", loopOptions(model));
  assertEquals([result.exitReason, result.text], ["done", "Here."]);
});

Deno.test("runTask() turns bad calls into error results the model can act on, one per call id", async () => {
  await using model = await startFakeModel([
    {
      toolCalls: [
        { name: "nope", arguments: "{}" },
        { name: "echo", arguments: '{"text": ' },
        { name: "echo", arguments: '{"txt":"a"}' },
        { name: "explode", arguments: "{}" },
      ],
    },
    { text: "I see the errors." },
  ]);
  const history = system();
  const result = await runTask(history, "go", loopOptions(model));
  assertEquals(result.exitReason, "done");
  const tools = history.messages().filter((message) => message.role === "tool") as Extract<
    Message,
    { role: "tool" }
  >[];
  assertEquals(tools.length, 4);
  assert(tools.every((message) => message.isError));
  assertEquals(
    tools.map((message) => message.toolCallId),
    (history.messages()[2] as { toolCalls: { id: string }[] }).toolCalls.map(
      (call) => call.id,
    ),
  );
  assertStringIncludes(tools[0].content, "echo");
  assertMatch(tools[1].content, /JSON/);
  assertStringIncludes(tools[2].content, "text");
  assertStringIncludes(tools[3].content, "kaboom");
});

Deno.test("runTask() never presents a cut answer as complete (finish_reason length)", async () => {
  await using model = await startFakeModel([{ text: "The answer is", finishReason: "length" }]);
  const result = await runTask(system(), "go", loopOptions(model));
  assertEquals(result.exitReason, "length");
  assert(result.partial);
});

Deno.test("runTask() never runs a call cut by the output limit: the model is told and continues", async () => {
  writeCalls.length = 0;
  await using model = await startFakeModel([
    {
      text: "Writing it.",
      toolCalls: [{ name: "write_note", arguments: '{"text":"a very lo' }],
      finishReason: "length",
    },
    { toolCalls: [{ name: "write_note", arguments: '{"text":"short"}' }] },
    { text: "Written." },
  ]);
  const history = system();
  const opts = loopOptions(model, { registry: createRegistry([writeTool]) });
  const result = await runTask(history, "go", opts);
  assertEquals([result.exitReason, result.text], ["done", "Written."]);
  assertEquals(writeCalls, ["short"]);
  const told = (model.requests[1].messages as { role: string; content: string }[]).at(-1)!;
  assertEquals(told.role, "user");
  assertStringIncludes(
    told.content,
    "cut off by the output limit while you were writing a call to write_note",
  );
  const notices = opts.events.flatMap((e) => e.type === "notice" ? [e.message] : []);
  assertStringIncludes(
    notices.join("\n"),
    "cut by the output limit while writing a call to write_note: not run",
  );
});

Deno.test("runTask() stops at --max-turns with a partial result", async () => {
  await using model = await startFakeModel((_body, _i) => ({
    toolCalls: [{ name: "echo", arguments: '{"text":"x"}' }],
  }));
  const result = await runTask(system(), "go", loopOptions(model, { maxTurns: 3 }));
  assertEquals(result.exitReason, "max_turns");
  // Three requests with tools, then the request for the partial report (not counted as a turn): it answered
  // with a call alone, which never runs, so the report is asked for once more without tools.
  assertEquals(result.turns, 3);
  assertEquals(model.requests.length, 5);
  assertEquals(model.requests[3].tools, model.requests[2].tools);
  assertEquals(model.requests[4].tools, undefined);
  assert(result.partial);
});

Deno.test("runTask() asks for the report after a stop with the same tools, and runs no call it holds", async () => {
  await using model = await startFakeModel((_body, i) =>
    i < 2
      ? { toolCalls: [{ name: "echo", arguments: `{"text":"${i}"}` }] }
      : { text: "Report.", toolCalls: [{ name: "echo", arguments: '{"text":"late"}' }] }
  );
  const options = loopOptions(model, { maxTurns: 2 });
  const result = await runTask(system(), "go", options);
  const calls = options.events.flatMap((event) => event.type === "tool_start" ? [event.name] : []);
  assertEquals([result.exitReason, result.text, result.partial], ["max_turns", "Report.", true]);
  assertEquals(model.requests.length, 3);
  assertEquals(model.requests[2].tools, model.requests[1].tools);
  assertEquals(calls, ["echo", "echo"]);
});

Deno.test("runTask() cancelled mid-tool gives every call a result and the next task's history is accepted", async () => {
  const script: ScriptedTurn[] = [
    {
      toolCalls: [{ name: "wait_forever", arguments: "{}" }, {
        name: "write_note",
        arguments: '{"text":"later"}',
      }],
    },
    { text: "Fresh answer." },
  ];
  await using model = await startFakeModel(script);
  const history = system();
  const controller = new AbortController();
  const opts = loopOptions(model, { signal: controller.signal });
  const first = runTask(history, "go", {
    ...opts,
    onEvent: (event) => {
      if (event.type === "tool_start" && event.name === "wait_forever") controller.abort();
    },
  });
  const result = await first;
  assertEquals(result.exitReason, "cancelled");
  const tools = history.messages().filter((message) => message.role === "tool") as Extract<
    Message,
    { role: "tool" }
  >[];
  assertEquals(tools.length, 2);
  assert(tools.every((message) => message.content.includes("cancelled by the user")));
  const next = await runTask(history, "again", loopOptions(model));
  assertEquals(next.exitReason, "done");
  assertEquals(next.text, "Fresh answer.");
});

Deno.test("runTask() cancelled while streaming ends as cancelled and keeps history valid", async () => {
  await using model = await startFakeModel([{ text: "slow answer here", chunkSize: 2, chunkDelayMs: 30 }, {
    text: "Next.",
  }]);
  const history = system();
  const controller = new AbortController();
  const run = runTask(history, "go", {
    ...loopOptions(model, { signal: controller.signal }),
    onEvent: (event) => {
      if (event.type === "text_delta") controller.abort();
    },
  });
  assertEquals((await run).exitReason, "cancelled");
  assertEquals((await runTask(history, "again", loopOptions(model))).text, "Next.");
});

Deno.test("runTask() reports a provider error in words and ends with exit reason error", async () => {
  await using model = await startFakeModel([{
    status: 401,
    errorBody: '{"error":{"message":"Invalid API key"}}',
  }]);
  const result = await runTask(system(), "go", loopOptions(model));
  assertEquals(result.exitReason, "error");
  assertStringIncludes(result.error ?? "", "Invalid API key");
});

Deno.test("runTask() ends the task with exit reason error when a tool says it cannot go on, every call answered", async () => {
  const doomed: Tool<{ text: string }> = {
    ...echoTool,
    name: "doomed",
    run: () => Promise.reject(new FatalToolError("the sandbox is required but unusable")),
  };
  await using model = await startFakeModel([
    {
      toolCalls: [
        { name: "echo", arguments: '{"text":"before"}' },
        { name: "doomed", arguments: '{"text":"x"}' },
        { name: "echo", arguments: '{"text":"after"}' },
      ],
    },
    { text: "Next task answered." },
  ]);
  const history = system();
  const opts = loopOptions(model, { registry: createRegistry([echoTool, doomed]) });
  const result = await runTask(history, "go", opts);
  assertEquals([result.exitReason, result.error], ["error", "the sandbox is required but unusable"]);
  assertEquals(model.requests.length, 1, "the model was not asked to carry on");
  const tools = history.messages().filter((m) => m.role === "tool");
  assertEquals(tools.length, 3, "every call of the turn has a result, so the next request is valid");
  assertStringIncludes(tools[1].content, "tern stopped: the sandbox is required but unusable");
  assertEquals((await runTask(history, "again", loopOptions(model))).text, "Next task answered.");
});

Deno.test("runTask() treats a bug in a tool as fatal and keeps its stack for TERN_DEBUG", async () => {
  const buggy: Tool<{ text: string }> = {
    ...echoTool,
    name: "buggy",
    run: () => Promise.resolve((undefined as unknown as { x: string }).x),
  };
  await using model = await startFakeModel([{ toolCalls: [{ name: "buggy", arguments: '{"text":"x"}' }] }]);
  const result = await runTask(system(), "go", loopOptions(model, { registry: createRegistry([buggy]) }));
  assertEquals(result.exitReason, "error");
  assertMatch(result.error ?? "", /^a bug in tern: buggy: /);
  assertStringIncludes(result.debug ?? "", "TypeError");
});

Deno.test("runTask() sends the same system prompt and tools, byte for byte, in every request of a conversation", async () => {
  await using model = await startFakeModel([
    { toolCalls: [{ name: "echo", arguments: '{"text":"a"}' }] },
    { text: "One." },
    { text: "Two." },
  ]);
  const registry = createRegistry([echoTool, writeTool]);
  const history = new Conversation({ systemPrompt: systemPrompt("/p", registry.tools()) });
  await runTask(history, "first", loopOptions(model, { registry }));
  await runTask(history, "second", loopOptions(model, { registry }));
  const prefix = (i: number) =>
    JSON.stringify([(model.requests[i].messages as unknown[])[0], model.requests[i].tools]);
  assertEquals(new Set([0, 1, 2].map(prefix)).size, 1);
  const system = (model.requests[0].messages as { content: string }[])[0].content;
  assertStringIncludes(system, "- echo: echo text back.\n- write_note: pretend to write.\n");
  // Request N+1 starts with exactly request N's messages.
  const messages = (i: number) => JSON.stringify(model.requests[i].messages).slice(0, -1);
  assert(messages(1).startsWith(messages(0)) && messages(2).startsWith(messages(1)));
});

Deno.test('runTask() marks a failed call\'s result with status="error" on the wire', async () => {
  await using model = await startFakeModel([
    { toolCalls: [{ name: "explode", arguments: "{}" }, { name: "echo", arguments: '{"text":"ok"}' }] },
    { text: "Done." },
  ]);
  await runTask(system(), "go", loopOptions(model));
  const tools = (model.requests[1].messages as { role: string; content: string }[]).filter((m) =>
    m.role === "tool"
  );
  assertMatch(
    tools[0].content,
    /^<tool_result status="error">explode: kaboom/,
  );
  assertMatch(tools[1].content, /^<tool_result>/);
});

Deno.test("runTask() runs no later call after a fatal error, not even the next write in order", async () => {
  writeCalls.length = 0;
  const doomedWrite: Tool<{ text: string }> = {
    ...writeTool,
    name: "doomed_write",
    run: () => Promise.reject(new FatalToolError("the project root vanished")),
  };
  await using model = await startFakeModel([{
    toolCalls: [
      { name: "doomed_write", arguments: '{"text":"a"}' },
      { name: "write_note", arguments: '{"text":"b"}' },
    ],
  }]);
  const history = system();
  const result = await runTask(
    history,
    "go",
    loopOptions(model, { registry: createRegistry([doomedWrite, writeTool]) }),
  );
  assertEquals(result.exitReason, "error");
  assertEquals(writeCalls, []);
  const last = history.messages().at(-1)!;
  assertStringIncludes(last.content, "not run: tern stopped (the project root vanished)");
});
