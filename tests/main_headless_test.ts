/** Headless runs that tell the truth, through the real CLI: time limits, turn counts, refused calls. */
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type Script, startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

/** Runs `tern -p go ARGS` in a fresh project against `script`; returns the run and the requests' messages. */
async function headless(script: Script, args: string[], files: Record<string, string> = {}) {
  await using project = await tempProject(files);
  await using model = startFakeModel(script);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "m" };
  const run = await runTern({ cwd: project.root, args: ["-p", "go", ...args], env });
  const messages = model.requests.map((request) => request.messages as { role: string; content: string }[]);
  return { ...run, messages };
}

Deno.test("tern -p --time-limit stops a running command at the limit and reports partial (exit 3)", async () => {
  const run = await headless([
    { toolCalls: [{ name: "execute_command", arguments: '{"command":"sleep 20; echo finished"}' }] },
    { text: "Report: the command was stopped." },
  ], ["--time-limit", "1s", "--approve", "all"]);
  assertEquals([run.code, run.stdout], [3, "Report: the command was stopped.\n"], run.stderr);
  const result = run.messages[1].at(-2)!.content;
  assertStringIncludes(result, "time limit of 1 s (--time-limit) was reached");
  assertEquals(result.includes("finished"), false);
  assertStringIncludes(run.stderr, "Stopping: the time limit of 1 s was reached");
});

Deno.test("tern -p --max-turns 1 reports turns: 1 (the report after the stop is not a turn)", async () => {
  const read = { toolCalls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] };
  const run = await headless(
    (body) => body.tools ? read : { text: "Report: read a.txt." },
    ["--max-turns", "1", "--output", "json"],
    { "a.txt": "A\n" },
  );
  assertEquals(run.code, 3, run.stderr);
  const result = JSON.parse(run.stdout);
  assertEquals([result.exit_reason, result.turns, result.tool_calls], ["max_turns", 1, 1]);
});
