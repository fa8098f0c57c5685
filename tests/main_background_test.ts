/** Background processes through the real CLI against the fake model server, checked with ps from outside. */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { finished, runTern, spawnTern } from "./support/cli.ts";
import { eventually, processesWith, sleepMarker } from "./support/processes.ts";
import { tempProject } from "./support/temp_project.ts";
import { streamJsonValidator } from "./support/stream_json.ts";

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

type Sent = { role: string; content: string };

const call = (name: string, args: unknown): ScriptedTurn => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});

const toolNames = (body: Record<string, unknown>) =>
  (body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);

Deno.test("tern -p starts a background server, reads it twice, kills it; nothing it started outlives tern", async () => {
  await using project = await tempProject();
  const [server, other] = [sleepMarker(61), sleepMarker(62)];
  // A "server": says it is ready, answers one request (the file `go`), then serves on.
  const command = `echo ready; while [ ! -e go ]; do sleep 0.1; done; echo got-go; exec sleep ${server}`;
  // Whether each was running (wrappers, sandbox and the command itself all carry the marker).
  const seen = { serverBeforeKill: false, serverAfterKill: true, otherBeforeExit: false };
  await using model = await startFakeModel(async (_body, index) => {
    if (index === 6) seen.serverBeforeKill = (await processesWith(server)).length > 0;
    if (index === 7) seen.serverAfterKill = (await processesWith(server)).length > 0;
    if (index === 7) seen.otherBeforeExit = (await processesWith(other)).length > 0;
    return [
      call("execute_command", { command, background: true }),
      call("command_output", { id: "bg1", wait_ms: 30_000 }),
      call("execute_command", { command: "touch go" }),
      call("command_output", { id: "bg1", wait_ms: 30_000 }),
      call("execute_command", { command: `exec sleep ${other}`, background: true }),
      call("command_output", { id: "bg2" }),
      call("command_kill", { id: "bg1" }),
      { text: "Served." },
    ][index];
  });
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "run the server", "--approve", "all", "--output", "stream-json"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const validate = await streamJsonValidator();
  const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  for (const event of events) assertEquals(validate(event), [], JSON.stringify(event));
  assertEquals(events.at(-1).result, "Served.");
  const backgrounds = events.filter((event) => event.type === "tool_result").map((event) =>
    event.details?.background
  );
  assertEquals(backgrounds, ["bg1", "bg1", undefined, "bg1", "bg2", "bg2", "bg1"]);
  const results = model.requests.map((body) => (body.messages as Sent[]).at(-1)!.content);
  assertStringIncludes(results[1], "Started in the background as bg1");
  assertStringIncludes(results[2], "ready");
  assertStringIncludes(results[2], "[bg1 running for");
  assertStringIncludes(results[4], "got-go");
  assert(!results[4].includes("ready"), "a read returns only what was printed since the last one");
  assertStringIncludes(results[7], "bg1 was killed");
  assertEquals([seen.serverBeforeKill, seen.serverAfterKill, seen.otherBeforeExit], [true, false, true]);
  // command_output and command_kill are offered once a background process exists, not before.
  assert(!toolNames(model.requests[0]).includes("command_output"));
  assert(
    toolNames(model.requests[1]).includes("command_output") &&
      toolNames(model.requests[1]).includes("command_kill"),
  );
  assertEquals(await processesWith(other), [], "tern's exit killed the process left running");
  assertEquals(await processesWith(server), []);
  assertEquals(await Deno.readTextFile(join(project.root, "go")), "");
});

Deno.test("a background process dies with tern even when tern is killed outright (SIGKILL)", async () => {
  await using project = await tempProject();
  const marker = sleepMarker(63);
  await using model = await startFakeModel([
    call("execute_command", { command: `exec sleep ${marker}`, background: true }),
    { delayMs: 60_000, text: "never sent" },
  ]);
  const child = await spawnTern({
    cwd: project.root,
    args: ["-p", "start it", "--approve", "all"],
    env: modelEnv(model.url),
  });
  const started = await eventually(async () =>
    (await processesWith(marker)).length > 0 && model.requests.length > 1
  );
  child.kill("SIGKILL");
  const run = await finished(child);
  assert(started, `the background process never started; stderr:\n${run.stderr}`);
  assert(await eventually(async () => (await processesWith(marker)).length === 0), "it outlived tern");
});

/** The live `sleep MARKER` processes themselves (not the shells whose command lines name them). */
async function sleeping(marker: string): Promise<string[]> {
  return (await processesWith(marker)).filter((line) => line.endsWith(`sleep ${marker}`));
}

Deno.test("tern -p --sandbox off: what a background command moved to a new session ends at tern's exit, also after SIGKILL", async () => {
  await using project = await tempProject();
  const [atExit, atKill] = [sleepMarker(64), sleepMarker(65)];
  // The subshell exits at once: the `sleep` lives on in a session of its own, its parent gone.
  const leaver = (marker: string) => `(setsid sleep ${marker} >/dev/null 2>&1 &); exec sleep 300`;
  await using model = await startFakeModel([
    call("execute_command", { command: leaver(atExit), background: true }),
    { text: "Started." },
    call("execute_command", { command: leaver(atKill), background: true }),
    { delayMs: 60_000, text: "never sent" },
  ]);
  const args = ["-p", "start it", "--approve", "all", "--sandbox", "off"];
  const run = await runTern({ cwd: project.root, args, env: modelEnv(model.url) });
  assertEquals([run.code, run.stdout], [0, "Started.\n"], run.stderr);
  assertEquals(await sleeping(atExit), [], "tern's exit left the setsid child running");
  const child = await spawnTern({ cwd: project.root, args, env: modelEnv(model.url) });
  const started = await eventually(async () =>
    (await sleeping(atKill)).length > 0 && model.requests.length > 3
  );
  child.kill("SIGKILL");
  const killed = await finished(child);
  assert(started, `the background process never started; stderr:\n${killed.stderr}`);
  assert(await eventually(async () => (await sleeping(atKill)).length === 0), "it outlived tern's SIGKILL");
});
