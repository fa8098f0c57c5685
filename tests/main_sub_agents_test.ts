/** Sub-agents, the plan and plan mode through the real CLI against the fake model server. */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { barrier, senderOf, toolNamesOf } from "./support/sub_agent_script.ts";
import { tempProject } from "./support/temp_project.ts";

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

function events(stdout: string): Record<string, unknown>[] {
  return stdout.trim().split("\n").map((line) => JSON.parse(line));
}

const TASKS: ScriptedTurn = {
  toolCalls: [
    {
      id: "call_a",
      name: "task",
      arguments: JSON.stringify({ description: "read a", prompt: "Job A: what does a.txt say?" }),
    },
    {
      id: "call_b",
      name: "task",
      arguments: JSON.stringify({ description: "read b", prompt: "Job B: what does b.txt say?" }),
    },
  ],
};

Deno.test("tern -p runs two sub-agents in parallel, each with its own small context; the parent gets only their answers", async () => {
  await using project = await tempProject({ "a.txt": "ALPHA-CONTENT\n", "b.txt": "BRAVO-CONTENT\n" });
  const together = barrier(2);
  await using model = await startFakeModel(async (body) => {
    const sender = senderOf(body);
    if (!sender.child) return sender.turn === 0 ? TASKS : { text: "a says alpha, b says bravo." };
    const file = sender.job.startsWith("Job A") ? "a.txt" : "b.txt";
    if (sender.turn === 0) {
      await together.arrive(); // both children's first requests are in flight before either is answered
      return { toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: file }) }] };
    }
    return { text: `${file} holds the word ${file === "a.txt" ? "alpha" : "bravo"}.` };
  });
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "PARENT-PROMPT: what do a.txt and b.txt say?", "--output", "stream-json"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const bodies = model.requests.map((body) => ({ body, sender: senderOf(body) }));
  const children = bodies.filter(({ sender }) => sender.child);
  assertEquals(children.length, 4);
  for (const { body, sender } of children) {
    const text = JSON.stringify(body);
    assert(!text.includes("PARENT-PROMPT"), "a child never sees the parent's conversation");
    assertEquals(toolNamesOf(body), ["glob_files", "grep_code", "list_dir", "read_file", "web_fetch"]);
    if (sender.turn === 0) assertEquals(sender.messages.map((m) => m.role), ["system", "user"]);
  }
  const last = bodies.at(-1)!;
  assert(!last.sender.child);
  const results = last.sender.messages.filter((message) => message.role === "tool");
  assertEquals(results.length, 2);
  assertStringIncludes(String(results[0].content), "a.txt holds the word alpha.");
  assertStringIncludes(String(results[1].content), "b.txt holds the word bravo.");
  const parentText = JSON.stringify(last.body);
  assert(!parentText.includes("ALPHA-CONTENT") && !parentText.includes("BRAVO-CONTENT"), "only answers");
  const stream = events(run.stdout);
  const starts = stream.filter((event) => event.type === "child_start");
  assertEquals(starts.map((event) => [event.child_id, event.agent]).sort(), [
    ["call_a", "general"],
    ["call_b", "general"],
  ]);
  const childCalls = stream.filter((event) =>
    event.type === "child_event" && (event.event as { type: string }).type === "tool_call"
  );
  assertEquals(childCalls.map((event) => event.child_id).sort(), ["call_a", "call_b"]);
  assertEquals(stream.at(-1), {
    type: "final",
    text: "a says alpha, b says bravo.",
    exit_reason: "done",
    partial: false,
  });
});
