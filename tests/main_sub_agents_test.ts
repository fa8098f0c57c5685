/** Sub-agents, the plan and plan mode through the real CLI against the fake model server. */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { barrier, senderOf, toolNamesOf } from "./support/sub_agent_script.ts";
import { streamJsonValidator } from "./support/stream_json.ts";
import { tempProject } from "./support/temp_project.ts";

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

/** The stream-json lines of a run, each checked against the documented schema. */
async function events(stdout: string): Promise<Record<string, unknown>[]> {
  const validate = await streamJsonValidator();
  const parsed = stdout.trim().split("\n").map((line) => JSON.parse(line));
  for (const event of parsed) assertEquals(validate(event), [], JSON.stringify(event));
  return parsed;
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
  const stream = await events(run.stdout);
  const starts = stream.filter((event) => event.type === "child_start");
  assertEquals(starts.map((event) => [event.child_id, event.agent]).sort(), [
    ["call_a", "general"],
    ["call_b", "general"],
  ]);
  const childCalls = stream.filter((event) =>
    event.type === "child_event" && (event.event as { type: string }).type === "tool_call"
  );
  assertEquals(childCalls.map((event) => event.child_id).sort(), ["call_a", "call_b"]);
  const ends = stream.filter((event) => event.type === "child_end");
  assertEquals(ends.map((event) => [event.child_id, event.text, event.exit_reason]).sort(), [
    ["call_a", "a.txt holds the word alpha.", "done"],
    ["call_b", "b.txt holds the word bravo.", "done"],
  ]);
  const result = stream.at(-1)!;
  assertEquals([result.type, result.text, result.exit_reason], [
    "result",
    "a says alpha, b says bravo.",
    "done",
  ]);
});

Deno.test("tern -p --output stream-json emits the plan each time update_plan changes it", async () => {
  await using project = await tempProject({});
  const mark: Record<string, string> = { pending: "[ ]", in_progress: "[>]", done: "[x]" };
  const plan = (statuses: string[]) =>
    JSON.stringify({
      plan: ["read the code", "fix the bug"].map((step, i) => `${mark[statuses[i]]} ${step}`).join("\n"),
    });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "update_plan", arguments: plan(["in_progress", "pending"]) }] },
    { toolCalls: [{ name: "update_plan", arguments: plan(["in_progress", "pending"]) }] },
    { toolCalls: [{ name: "update_plan", arguments: plan(["done", "in_progress"]) }] },
    { toolCalls: [{ name: "update_plan", arguments: plan(["in_progress", "in_progress"]) }] },
    { text: "Planned." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "plan it", "--output", "stream-json"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const plans = (await events(run.stdout)).filter((event) => event.type === "plan");
  assertEquals(plans, [
    {
      v: 1,
      type: "plan",
      steps: [{ step: "read the code", status: "in_progress" }, { step: "fix the bug", status: "pending" }],
    },
    {
      v: 1,
      type: "plan",
      steps: [{ step: "read the code", status: "done" }, { step: "fix the bug", status: "in_progress" }],
    },
  ]);
  const refused = model.requests[4].messages as { role: string; content: string }[];
  assertStringIncludes(refused.at(-1)!.content, "mark only the step you are working on now");
});

Deno.test("tern -p --mode plan runs reads but refuses a write, telling the model to present its plan", async () => {
  await using project = await tempProject({ "notes.txt": "old\n" });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"notes.txt"}' }] },
    { toolCalls: [{ name: "write_file", arguments: '{"path":"notes.txt","content":"new\\n"}' }] },
    { text: "Plan: 1. rewrite notes.txt." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "rewrite notes.txt", "--mode", "plan", "--output", "json"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(await Deno.readTextFile(`${project.root}/notes.txt`), "old\n");
  const first = model.requests[0].messages as { role: string; content: string }[];
  assertStringIncludes(first.at(-1)!.content, "plan mode is on");
  const second = model.requests[1].messages as { role: string; content: string }[];
  assertStringIncludes(second.at(-1)!.content, "old");
  const third = model.requests[2].messages as { role: string; content: string }[];
  assertStringIncludes(third.at(-1)!.content, "write_file was not run: plan mode is on");
  const result = JSON.parse(run.stdout);
  assertEquals([result.result, result.permission_denials.length], ["Plan: 1. rewrite notes.txt.", 1]);
});
