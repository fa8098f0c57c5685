/**
 * The stream-json contract (docs/stream-json.md): every event of real multi-turn runs of the CLI validates
 * against docs/stream-json.schema.json, one session id throughout, approvals asked and answered over
 * stdout/stdin, bad stdin lines reported without ending the run, and `--output json` printing the result.
 */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { liveTern, streamJsonValidator } from "../../support/stream_json.ts";
import { tempProject } from "../../support/temp_project.ts";
import { resultEvent, streamEvent } from "../../../src/cli/headless/stream_json.ts";
import { testSession } from "../../support/session.ts";

const validate = await streamJsonValidator();

function env(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model", NO_COLOR: "1" };
}

const EDIT_SCRIPT = [
  { toolCalls: [{ id: "read1", name: "read_file", arguments: '{"path":"hello.txt"}' }] },
  {
    toolCalls: [{
      id: "edit1",
      name: "edit_file",
      arguments: '{"path":"hello.txt","old_text":"World","new_text":"Agent"}',
    }],
  },
  { reasoning: "done", text: "Edited." },
  { text: "Second answer." },
];

Deno.test("a two-message stream-json run validates against the schema, with one session id and an approval over stdin", async () => {
  await using project = await tempProject({ "hello.txt": "Hello World\n" });
  await using model = startFakeModel(EDIT_SCRIPT);
  const args = ["--input-format", "stream-json", "--output", "stream-json"];
  await using tern = await liveTern(project.root, args, env(model.url));
  await tern.send({ type: "user", text: "change the greeting" });
  const first = await tern.readUntil((event) => event.type === "approval_request");
  assertEquals(first[0].type, "init");
  const asked = first.at(-1)!;
  assertEquals([asked.id, asked.name, asked.why, asked.flag], [
    "edit1",
    "edit_file",
    "edit",
    "--approve edits",
  ]);
  await tern.send({ type: "approval", id: "edit1", decision: "allow" });
  const second = await tern.readUntil((event) => event.type === "result");
  await tern.send({ type: "user", text: "and now?" });
  const { code, events: rest, stderr } = await tern.finish();
  assertEquals(code, 0, stderr);
  const events = [...first, ...second, ...rest];
  for (const event of events) assertEquals(validate(event), [], JSON.stringify(event));
  assertEquals(await Deno.readTextFile(`${project.root}/hello.txt`), "Hello Agent\n");
  const answered = events.find((event) => event.type === "approval_response")!;
  assertEquals([answered.id, answered.decision, answered.by], ["edit1", "allow", "stdin"]);
  const results = events.filter((event) => event.type === "result");
  assertEquals(results.map((result) => result.text), ["Edited.", "Second answer."]);
  assertEquals(events.at(-1)!.type, "result");
  const ids = new Set(events.filter((e) => e.session_id !== undefined).map((e) => e.session_id));
  assertEquals(ids.size, 1);
  assert(typeof [...ids][0] === "string");
  // The second message continued the same conversation: the model saw the first answer.
  const lastRequest = model.requests[3].messages as { role: string; content: string }[];
  assert(lastRequest.some((message) => message.role === "assistant" && message.content === "Edited."));
  const types = events.map((event) => event.type);
  for (const type of ["init", "model_start", "reasoning_delta", "text_delta", "tool_call", "tool_start"]) {
    assert(types.includes(type), `${type} in ${types}`);
  }
  assert(types.includes("tool_result") && types.includes("usage"));
});

Deno.test("stream-json input: bad lines become error events and the run goes on; an unanswered approval is refused at the timeout", async () => {
  await using project = await tempProject({ "hello.txt": "Hello World\n" });
  await using model = startFakeModel(EDIT_SCRIPT.slice(0, 3));
  const args = ["--input-format", "stream-json", "--output", "stream-json", "--approval-timeout", "1s"];
  await using tern = await liveTern(project.root, args, env(model.url));
  await tern.send("not an object");
  await tern.send({ type: "telepathy" });
  await tern.send({ type: "user", text: "" });
  await tern.send({ type: "approval", id: "x", decision: "maybe" });
  await tern.send({ type: "user", text: "change the greeting" });
  const events = await tern.readUntil((event) => event.type === "result");
  const { code, events: rest } = await tern.finish();
  assertEquals(code, 0);
  for (const event of [...events, ...rest]) assertEquals(validate(event), [], JSON.stringify(event));
  const errors = events.filter((event) => event.type === "error").map((event) => String(event.message));
  assertEquals(errors.length, 4, JSON.stringify(errors));
  assertStringIncludes(errors[0], "stdin line 1: not an object");
  assertStringIncludes(errors[1], 'unknown type "telepathy"');
  assertStringIncludes(errors[2], 'non-empty "text"');
  assertStringIncludes(errors[3], '"decision" must be one of allow, allow_session, deny, abort');
  const answered = events.find((event) => event.type === "approval_response")!;
  assertEquals([answered.decision, answered.by], ["deny", "timeout"]);
  const result = events.at(-1)!;
  assertEquals((result.permission_denials as unknown[]).length, 1);
  assertEquals(await Deno.readTextFile(`${project.root}/hello.txt`), "Hello World\n");
});

Deno.test("tern --input-format stream-json --output json prints only the final result event, valid against the schema", async () => {
  await using project = await tempProject({ "hello.txt": "Hello World\n" });
  await using model = startFakeModel([{ text: "one" }, { text: "two" }]);
  const input = [{ type: "user", text: "first" }, { type: "user", text: "second" }]
    .map((line) => JSON.stringify(line) + "\n").join("");
  const run = await runTern({
    cwd: project.root,
    args: ["--input-format", "stream-json", "--output", "json"],
    env: env(model.url),
    input,
  });
  assertEquals(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split("\n");
  assertEquals(lines.length, 1);
  const result = JSON.parse(lines[0]);
  assertEquals(validate(result), []);
  assertEquals([result.type, result.text, result.result, result.turns], ["result", "two", "two", 1]);
});

Deno.test("tern --input-format stream-json with no message on stdin says so and exits 2", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([]);
  const run = await runTern({
    cwd: project.root,
    args: ["--input-format", "stream-json", "--output", "stream-json"],
    env: env(model.url),
    input: "",
  });
  assertEquals(run.code, 2);
  const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assertEquals(events.map((event) => event.type), ["init", "error"]);
  for (const event of events) assertEquals(validate(event), []);
  assertStringIncludes(run.stderr, "stdin carried no user message");
});

Deno.test("tern -p --output json prints exactly the final event of the same run in stream-json", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([{ text: "same" }, { text: "same" }]);
  const json = await runTern({
    cwd: project.root,
    args: ["-p", "hi", "--output", "json"],
    env: env(model.url),
  });
  const stream = await runTern({
    cwd: project.root,
    args: ["-p", "hi", "--output", "stream-json"],
    env: env(model.url),
  });
  const object = JSON.parse(json.stdout);
  const final = JSON.parse(stream.stdout.trim().split("\n").at(-1)!);
  assertEquals(validate(object), []);
  // Each run has its own session and its own clock; everything else is the same object.
  for (const run of [object, final]) {
    assert(typeof run.session_id === "string" && typeof run.duration_ms === "number");
    delete run.session_id;
    delete run.duration_ms;
  }
  assertEquals(object, final);
});

Deno.test("streamEvent() names every field in snake_case and cuts long tool results; resultEvent() prices usage", async () => {
  await using project = await tempProject();
  const session = await testSession(project.root, { config: { model: "deepseek-chat" } });
  const long = "x".repeat(2500);
  assertEquals(
    streamEvent({ type: "tool_result", id: "1", name: "read_file", content: long, isError: false }),
    {
      v: 1,
      type: "tool_result",
      id: "1",
      name: "read_file",
      is_error: false,
      content: "x".repeat(2000),
      content_chars: 2500,
      content_truncated: true,
    },
  );
  assertEquals(streamEvent({ type: "retry", attempt: 1, maxAttempts: 3, delayMs: 10, reason: "429" }), {
    v: 1,
    type: "retry",
    attempt: 1,
    max_attempts: 3,
    delay_ms: 10,
    reason: "429",
  });
  assertEquals(streamEvent({ type: "final", text: "", exitReason: "done", partial: false }), null);
  const usage = { promptTokens: 1_700, completionTokens: 18, totalTokens: 1_718, cachedTokens: 0 };
  const result = {
    text: "ok",
    exitReason: "cancelled" as const,
    partial: false,
    turns: 1,
    toolCalls: 0,
    usage,
  };
  const event = resultEvent(result, { session, denials: [], durationMs: 12.4 });
  assertEquals(validate(event), []);
  assertEquals([event.partial, event.duration_ms, event.session_id], [true, 12, null]);
  assertEquals((event.usage as Record<string, unknown>).cost_usd, 0.00048356);
});

Deno.test("streamEvent(): a web_fetch result's details and a refused call's flag validate against the schema", async () => {
  const validate = await streamJsonValidator();
  const web = streamEvent({
    type: "tool_result",
    id: "c1",
    name: "web_fetch",
    content: "# Page",
    isError: false,
    details: { web: { status: 200, url: "https://example.org/a", bytes: 1234 } },
  });
  const refused = streamEvent({
    type: "tool_result",
    id: "c2",
    name: "edit_file",
    content: "edit_file was not run: it needs approval",
    isError: true,
    errorKind: "denied",
    details: { needs: "--approve edits" },
  });
  assertEquals([validate(web), validate(refused)], [[], []]);
  assertEquals(validate({ ...web, details: { web: { status: "200" } } }).length > 0, true);
});
