import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { testSession } from "../../support/session.ts";
import { barrier, senderOf, toolNamesOf } from "../../support/sub_agent_script.ts";
import { tempProject } from "../../support/temp_project.ts";
import type { AgentDefinition } from "../../../src/agent/project/agents.ts";
import type { AgentEvent } from "../../../src/agent/events.ts";

const task = (prompt: string, agent?: string) => ({
  name: "task",
  arguments: JSON.stringify({ description: prompt.slice(0, 10), prompt, ...agent && { agent } }),
});

function lastToolResults(body: Record<string, unknown>): string[] {
  const messages = senderOf(body).messages;
  return messages.filter((message) => message.role === "tool").map((message) => String(message.content));
}

const FIXER: AgentDefinition = {
  name: "fixer",
  description: "fixes things",
  tools: ["read_file", "edit_file", "task", "update_plan", "deploy"],
  model: "fixer-model",
  instructions: "FIXER-INSTRUCTIONS: fix what you are told.",
  source: ".tern/agents/fixer.md",
  notes: [],
};

Deno.test("a named agent runs on its model with only its tools the session has (never task), and never asks: its edit is refused", async () => {
  await using project = await tempProject({ "a.txt": "old\n" });
  await using model = startFakeModel((body) => {
    const sender = senderOf(body);
    if (!sender.child) {
      return sender.turn === 0 ? { toolCalls: [task("Job F: fix a.txt", "fixer")] } : { text: "ok" };
    }
    if (sender.turn === 0) return { toolCalls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] };
    if (sender.turn === 1) {
      return {
        toolCalls: [{ name: "edit_file", arguments: '{"path":"a.txt","old_text":"old","new_text":"new"}' }],
      };
    }
    return { text: "I could not edit a.txt; change old to new." };
  });
  const session = await testSession(project.root, { config: { baseUrl: model.url }, agents: [FIXER] });
  let asked = 0;
  const result = await session.run("fix a.txt", {
    approve: session.gate(() => Promise.resolve((asked++, true))),
  });
  assertEquals([result.exitReason, asked], ["done", 0]);
  assertEquals(await Deno.readTextFile(`${project.root}/a.txt`), "old\n");
  const childRequests = model.requests.filter((body) => senderOf(body).child);
  assertEquals(toolNamesOf(childRequests[0]), ["edit_file", "read_file"]);
  assertEquals([childRequests[0].model, model.requests[0].model], ["fixer-model", "deepseek-chat"]);
  assertStringIncludes(String(senderOf(childRequests[0]).messages[0].content), "FIXER-INSTRUCTIONS");
  assertStringIncludes(lastToolResults(childRequests[2]).at(-1)!, "a sub-agent cannot ask");
  assertStringIncludes(lastToolResults(model.requests.at(-1)!)[0], "I could not edit a.txt");
});

Deno.test("cancelling the main task stops its running child; the next prompt works", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n" });
  let childRequests = 0;
  let cancel = () => {};
  await using model = startFakeModel((body) => {
    const sender = senderOf(body);
    if (sender.child) {
      childRequests++;
      cancel(); // the user presses Esc while the child waits for its model
      return { toolCalls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] };
    }
    const first = sender.messages.length === 2;
    return first ? { toolCalls: [task("Job C")] } : { text: "next" };
  });
  const session = await testSession(project.root, { config: { baseUrl: model.url } });
  cancel = () => session.cancel();
  const first = await session.run("look");
  assertEquals(first.exitReason, "cancelled");
  const next = await session.run("again");
  assertEquals([next.exitReason, next.text, childRequests], ["done", "next", 1]);
});

Deno.test("at most three children run at once; a fourth waits for a free slot", async () => {
  await using project = await tempProject({});
  let inFlight = 0;
  let most = 0;
  const three = barrier(3);
  await using model = startFakeModel(async (body) => {
    const sender = senderOf(body);
    if (!sender.child) {
      return sender.turn === 0
        ? { toolCalls: ["1", "2", "3", "4"].map((n) => task(`Job ${n}`)) }
        : { text: "all" };
    }
    most = Math.max(most, ++inFlight);
    await three.arrive();
    inFlight--;
    return { text: `answer of ${sender.job}` };
  });
  const session = await testSession(project.root, { config: { baseUrl: model.url } });
  const result = await session.run("four jobs");
  assertEquals([result.exitReason, most], ["done", 3]);
  const answers = lastToolResults(model.requests.at(-1)!);
  assertEquals(
    answers.map((text) => text.split("\n")[0]),
    ["1", "2", "3", "4"].map((n) => `<tool_result>answer of Job ${n}`),
  );
});

Deno.test("a child stops at its own token budget; its answer comes back labelled partial, and its tokens count for the task", async () => {
  await using project = await tempProject({ "a.txt": "alpha\n", "b.txt": "bravo\n" });
  const usage = { prompt_tokens: 250, completion_tokens: 50 };
  await using model = startFakeModel((body) => {
    const sender = senderOf(body);
    if (!sender.child) {
      const small = { prompt_tokens: 10, completion_tokens: 5 };
      return sender.turn === 0
        ? { toolCalls: [task("Job T")], usage: small }
        : { text: "done", usage: small };
    }
    const read = (path: string) => ({
      toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path }) }],
    });
    if (sender.turn === 0) return { ...read("a.txt"), usage };
    if (sender.turn === 1) return { ...read("b.txt"), usage };
    return { text: "partial findings", usage };
  });
  const session = await testSession(project.root, { config: { baseUrl: model.url, tokenBudget: 500 } });
  const events: AgentEvent[] = [];
  const result = await session.run("survey", { onEvent: (event) => events.push(event) });
  // The child's tokens count toward the main task's budget too: it ends with its report, partial.
  assertEquals([result.exitReason, result.usage.totalTokens], ["token_budget", 15 + 3 * 300 + 15]);
  const answer = lastToolResults(model.requests.at(-1)!)[0];
  assertStringIncludes(answer, "partial findings");
  assertStringIncludes(answer, "stopped early (token_budget)");
  const childFinal = events.find((event) => event.type === "child_event" && event.event.type === "final");
  assert(childFinal?.type === "child_event" && childFinal.event.type === "final" && childFinal.event.partial);
  assertEquals(session.usage.total.totalTokens, 15 + 3 * 300 + 15);
});
