/** stream-json approvals answer only questions already asked; the ids tern makes cannot be guessed. */
import { assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { liveTern, streamJsonValidator } from "../../support/stream_json.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

const validate = await streamJsonValidator();
const env = (url: string) => ({ TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" });

Deno.test("stream-json: an approval sent before its question is an error event and dropped; the write is asked, not run", async () => {
  await using project = await tempProject();
  // The model sends no call ids: tern makes them, and they must not be call_0, call_1, ...
  await using model = startFakeModel([
    { toolCalls: [{ id: "", name: "write_file", arguments: '{"path":"planted.txt","content":"x"}' }] },
    { text: "Stopped." },
  ]);
  const args = ["--input-format", "stream-json", "--output", "stream-json", "--approval-timeout", "1s"];
  await using tern = await liveTern(project.root, args, env(model.url));
  for (const id of ["call_0", "call_1", "tern_1"]) {
    await tern.send({ type: "approval", id, decision: "allow_session" });
  }
  await tern.send({ type: "user", text: "write it" });
  const events = await tern.readUntil((event) => event.type === "result");
  const { code, events: rest } = await tern.finish();
  assertEquals(code, 0);
  for (const event of [...events, ...rest]) assertEquals(validate(event), [], JSON.stringify(event));
  const errors = events.filter((event) => event.type === "error").map((event) => String(event.message));
  assertEquals(errors.length, 3, JSON.stringify(errors));
  assertStringIncludes(errors[0], 'no approval_request is waiting for call "call_0"');
  assertStringIncludes(errors[0], "was dropped");
  const asked = events.find((event) => event.type === "approval_request")!;
  assertMatch(String(asked.id), /^call_[A-Za-z0-9]{24}$/);
  const answered = events.find((event) => event.type === "approval_response")!;
  assertEquals([answered.decision, answered.by], ["deny", "timeout"]);
  assertEquals(await Deno.lstat(`${project.root}/planted.txt`).then(() => true, () => false), false);
});

Deno.test("stream-json: a Claude Code ask rule asks even under --approve all, and the question validates", async () => {
  await using project = await tempProject({
    ".claude/settings.json": JSON.stringify({ permissions: { ask: ["Write(deploy/**)"] } }),
  });
  await using model = startFakeModel([
    { toolCalls: [{ id: "w1", name: "write_file", arguments: '{"path":"deploy/prod.yml","content":"x"}' }] },
    { text: "Written." },
  ]);
  const args = ["--input-format", "stream-json", "--output", "stream-json", "--approve", "all"];
  await using tern = await liveTern(project.root, args, env(model.url));
  await tern.send({ type: "user", text: "deploy" });
  const asked = (await tern.readUntil((event) => event.type === "approval_request")).at(-1)!;
  assertEquals(validate(asked), [], JSON.stringify(asked));
  assertEquals([asked.id, asked.why], ["w1", "ask_rule"]);
  assertStringIncludes(String(asked.detail), 'the permission rule "ask Write(deploy/**)"');
  await tern.send({ type: "approval", id: "w1", decision: "allow" });
  const { code } = await tern.finish();
  assertEquals(code, 0);
  assertEquals(await Deno.readTextFile(`${project.root}/deploy/prod.yml`), "x");
});

Deno.test("stream-json: a question still open when stdin ends is refused at once, saying stdin ended", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([
    { toolCalls: [{ id: "w1", name: "write_file", arguments: '{"path":"late.txt","content":"x"}' }] },
    { text: "Stopped." },
  ]);
  const run = await runTern({
    cwd: project.root,
    // A timeout of an hour: only the end of stdin can have answered.
    args: ["--input-format", "stream-json", "--output", "stream-json", "--approval-timeout", "3600s"],
    env: env(model.url),
    input: `${JSON.stringify({ type: "user", text: "write it" })}\n`,
  });
  assertEquals(run.code, 0, run.stderr);
  const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const answered = events.find((event) => event.type === "approval_response")!;
  assertEquals([answered.decision, answered.by], ["deny", "timeout"]);
  assertMatch(
    String(answered.reason),
    /^stdin ended before an answer came, so approval mode "ask" refused it/,
  );
  assertEquals(await Deno.lstat(`${project.root}/late.txt`).then(() => true, () => false), false);
});
