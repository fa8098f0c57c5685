import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runTask } from "../../../src/agent/loop/loop.ts";
import { MAX_CALLS_PER_TURN, usedCallIds, withUniqueIds } from "../../../src/agent/loop/protocol.ts";
import type { Message } from "../../../src/llm/types.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { loopOptions, system } from "./_loop_fixtures.ts";

Deno.test("withUniqueIds() renames empty and repeated ids, within the answer and against earlier ones", () => {
  const used = new Set(["call_0", "a"]);
  const calls = [
    { id: "a", name: "x", arguments: "{}" },
    { id: "b", name: "x", arguments: "{}" },
    { id: "b", name: "x", arguments: "{}" },
    { id: "", name: "x", arguments: "{}" },
    { id: "call_0", name: "x", arguments: "{}" },
  ];
  const ids = withUniqueIds(calls, used).map((call) => call.id);
  assertEquals(ids[1], "b");
  assertEquals(new Set(ids).size, 5);
  for (const id of [ids[0], ids[2], ids[3], ids[4]]) assertEquals(id.startsWith("tern_"), true, id);
});

Deno.test("runTask() runs two calls with one id under distinct ids and sends a valid history", async () => {
  await using model = await startFakeModel([
    {
      toolCalls: [
        { id: "dup", name: "echo", arguments: '{"text":"one"}' },
        { id: "dup", name: "echo", arguments: '{"text":"two"}' },
        { id: "", name: "echo", arguments: '{"text":"three"}' },
      ],
    },
    { toolCalls: [{ id: "dup", name: "echo", arguments: '{"text":"four"}' }] },
    { text: "Done." },
  ]);
  const history = system();
  const result = await runTask(history, "go", loopOptions(model));
  assertEquals(result.exitReason, "done");
  const messages = history.messages();
  const callIds = messages.flatMap((m) => m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : []);
  const resultIds = messages.flatMap((m) => m.role === "tool" ? [m.toolCallId] : []);
  assertEquals(new Set(callIds).size, 4);
  assertEquals(resultIds, callIds);
  const echoed = messages.filter((m): m is Extract<Message, { role: "tool" }> => m.role === "tool")
    .map((m) => /echo: (\w+)/.exec(m.content)?.[1]);
  assertEquals(echoed, ["one", "two", "three", "four"]);
  assertEquals(usedCallIds(history.entries).size, 4);
});

Deno.test("runTask() runs at most 64 calls from one answer and answers the rest with an error", async () => {
  const calls = Array.from({ length: 1000 }, (_, i) => ({ name: "echo", arguments: `{"text":"n${i}"}` }));
  await using model = await startFakeModel([{ toolCalls: calls }, { text: "Done." }]);
  const history = system();
  const opts = loopOptions(model);
  const result = await runTask(history, "go", opts);
  assertEquals(result.exitReason, "done");
  const tools = history.messages().filter((m) => m.role === "tool");
  assertEquals(tools.length, 1000, "every call has a result: the history stays valid");
  const ran = tools.filter((m) => m.content.includes("echo: n"));
  assertEquals(ran.length, MAX_CALLS_PER_TURN);
  assertStringIncludes(tools[999].content, "the answer held 1000 tool calls and tern runs at most 64");
  assertEquals(model.requests.length, 2, "the fake server accepted the next request's pairing");
});

Deno.test("usedCallIds() sees ids logged after its last call, and its set is the caller's to change", () => {
  const history = system();
  const call = (id: string) => ({
    kind: "assistant" as const,
    message: { role: "assistant" as const, content: "", toolCalls: [{ id, name: "echo", arguments: "{}" }] },
  });
  history.append(call("a"));
  const first = usedCallIds(history.entries);
  first.add("not logged");
  history.append(call("b"));
  assertEquals([...usedCallIds(history.entries)], ["a", "b"]);
  // Another, shorter log in a new array is read from its start.
  assertEquals([...usedCallIds([call("z")])], ["z"]);
});
