/**
 * `tern -p` under SIGINT and SIGTERM (issue 4): the run ends as cancelled with exit code 130, and with
 * `--output json` still prints its result object. The real CLI runs under tern's flags against the fake model.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "../../support/fake_model_server.ts";
import { finished, spawnTern } from "../../support/cli.ts";
import { eventually, processesWith, sleepMarker } from "../../support/processes.ts";
import { tempProject } from "../../support/temp_project.ts";

function modelEnv(model: FakeModel): Record<string, string> {
  return { TERN_BASE_URL: model.url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

/** Runs `tern -p` with `args`, sends `signal` once the model got `requests` requests, and collects the run. */
async function interrupted(
  script: ScriptedTurn[],
  options: { signal: Deno.Signal; args: string[]; ready?: (model: FakeModel) => Promise<boolean> },
) {
  await using project = await tempProject();
  await using model = startFakeModel(script);
  const child = await spawnTern({
    cwd: project.root,
    args: ["-p", "do the task", ...options.args],
    env: modelEnv(model),
  });
  const ready = options.ready ?? ((m: FakeModel) => Promise.resolve(m.requests.length > 0));
  // tern listens for signals before its first request: waiting for the request means it is listening.
  const waited = await eventually(() => ready(model));
  child.kill(options.signal);
  const run = await finished(child);
  assert(waited, `tern never got ready for the signal; stderr:\n${run.stderr}`);
  return { run, requests: model.requests.length };
}

const SLOW_START: ScriptedTurn = { delayMs: 60_000, text: "never sent" };
const SLOW_STREAM: ScriptedTurn = { text: `Partial ${"words ".repeat(200)}`, chunkDelayMs: 100 };

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`tern -p --output json ends with 130 and exit_reason cancelled on ${signal} while the model is slow`, async () => {
    const { run, requests } = await interrupted([SLOW_START], { signal, args: ["--output", "json"] });
    assertEquals([run.code, run.signal], [130, null], run.stderr);
    const result = JSON.parse(run.stdout);
    assertEquals([result.exit_reason, result.partial, result.result], ["cancelled", true, ""]); // issue 11: cancelled is partial
    assertEquals(requests, 1);
  });
}

Deno.test("tern -p ends with 130 on SIGINT while the answer streams", async () => {
  const { run, requests } = await interrupted([SLOW_STREAM], { signal: "SIGINT", args: [] });
  assertEquals([run.code, run.signal], [130, null], run.stderr);
  assertEquals(requests, 1);
});

Deno.test("tern -p --output json ends with 130 on SIGTERM during a long command and kills its process group", async () => {
  const marker = sleepMarker(51);
  const command = `sleep ${marker} & wait`;
  const script: ScriptedTurn[] = [
    { toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command, timeout_ms: 600_000 }) }] },
    { text: "never asked for" },
  ];
  const { run, requests } = await interrupted(script, {
    signal: "SIGTERM",
    args: ["--output", "json", "--approve", "all"],
    ready: async () => (await processesWith(marker)).length > 0,
  });
  assertEquals([run.code, run.signal], [130, null], run.stderr);
  assertEquals(JSON.parse(run.stdout).exit_reason, "cancelled");
  assertEquals(requests, 1);
  assert(await eventually(async () => (await processesWith(marker)).length === 0), "the command was killed");
});
