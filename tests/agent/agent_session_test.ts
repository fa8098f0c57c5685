import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { eventually } from "../support/processes.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { testSession } from "../support/session.ts";
import { tempProject } from "../support/temp_project.ts";
import type { AgentEvent } from "../../src/agent/events.ts";
import { CONVERSATION_NOW } from "../../src/agent/_session_internals.ts";

Deno.test("AgentSession.prompt() streams the task's events and returns its result", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  await using model = startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] },
    { text: "It says alpha." },
  ]);
  const session = await testSession(project.root, { config: { baseUrl: model.url } });
  const stream = session.prompt("what does a.txt say?");
  const types: string[] = [];
  let next = await stream.next();
  while (!next.done) {
    types.push((next.value as AgentEvent).type);
    next = await stream.next();
  }
  assertEquals(next.value.text, "It says alpha.");
  assertEquals(next.value.exitReason, "done");
  assertEquals(types.filter((type) => type !== "text_delta" && type !== "usage"), [
    "model_start",
    "tool_call",
    "tool_start",
    "tool_result",
    "model_start",
    "final",
  ]);
  const state = session.state();
  assertEquals([state.model, state.provider, state.mode, state.usage.calls], [
    "deepseek-chat",
    "deepseek",
    "ask",
    2,
  ]);
});

Deno.test("AgentSession.cancel() stops the running prompt; the conversation stays valid for the next", async () => {
  await using project = await tempProject({});
  await using model = startFakeModel([{ text: "slow", delayMs: 600_000 }, { text: "next answer" }]);
  const session = await testSession(project.root, { config: { baseUrl: model.url } });
  const running = session.run("wait");
  assert(
    await eventually(() => Promise.resolve(model.requests.length === 1)),
    "the request reached the model",
  );
  session.cancel();
  assertEquals((await running).exitReason, "cancelled");
  const after = await session.run("again");
  assertEquals([after.exitReason, after.text], ["done", "next answer"]);
});

Deno.test("AgentSession: a call that needs a yes is refused with no one to ask; clear() forgets the conversation", async () => {
  await using project = await tempProject({});
  await using model = startFakeModel([
    { toolCalls: [{ name: "write_file", arguments: '{"path":"x.txt","content":"x"}' }] },
    { text: "could not write" },
  ]);
  const session = await testSession(project.root, { config: { baseUrl: model.url } });
  const events: AgentEvent[] = [];
  await session.run("write x.txt", { onEvent: (event) => events.push(event) });
  const result = events.find((event) => event.type === "tool_result");
  assertEquals(result?.type === "tool_result" && result.errorKind, "denied");
  assertStringIncludes(result?.type === "tool_result" ? result.content : "", "--approve");
  const before = session[CONVERSATION_NOW].conversation;
  session.clear();
  assertEquals([session[CONVERSATION_NOW].conversation === before, session.entries.length], [false, 0]);
  assertEquals(session.usage.calls, 0);
});

Deno.test("undo names the files changed after the turn and overwrites them only when told to", async () => {
  for (const keepChangedSince of [true, false]) {
    await using project = await tempProject({ "a.txt": "original\n" });
    const write = (path: string, content: string) => ({
      name: "write_file",
      arguments: JSON.stringify({ path, content }),
    });
    await using model = startFakeModel([
      { toolCalls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] },
      { toolCalls: [write("a.txt", "by the turn\n"), write("b.txt", "new\n")] },
      { text: "Changed." },
    ]);
    const session = await testSession(project.root, {
      snapshots: true,
      config: { baseUrl: model.url, approve: "all" },
    });
    await session.run("change a and add b");
    assertEquals(await Deno.readTextFile(`${project.root}/a.txt`), "by the turn\n");
    // The turn's end is snapshotted in the background; a plan waits for it (a user reads before editing).
    assertEquals((await session.undoPlan())?.changedSince, []);
    await Deno.writeTextFile(`${project.root}/a.txt`, "the user's newer work\n"); // after the turn
    const plan = (await session.undoPlan())!;
    assertEquals(plan.changes?.paths, ["a.txt", "b.txt"]);
    assertEquals(plan.changedSince, ["a.txt"]);
    await session.undo(plan, { files: true, conversation: true, keepChangedSince });
    assertEquals(
      await Deno.readTextFile(`${project.root}/a.txt`),
      keepChangedSince ? "the user's newer work\n" : "original\n",
    );
    assertEquals(await Deno.lstat(`${project.root}/b.txt`).then(() => true, () => false), false);
  }
});
