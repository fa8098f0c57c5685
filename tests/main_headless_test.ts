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

Deno.test("tern -p without a terminal names the calls it refused in one stderr line and exits 3", async () => {
  const write = (path: string) => ({
    name: "write_file",
    arguments: JSON.stringify({ path, content: "x\n" }),
  });
  const run = await headless([
    { toolCalls: [write("a.txt"), write("b.txt")] },
    { text: "I could not write the files." },
  ], []);
  assertEquals([run.code, run.stdout], [3, "I could not write the files.\n"], run.stderr);
  const last = run.stderr.trimEnd().split("\n").at(-1);
  assertEquals(
    last,
    "tern: 2 calls were refused: write_file a.txt, write_file b.txt; rerun with --approve edits",
  );
});

Deno.test("tern -p --output json marks a run with refused calls partial and lists them; a deny rule is not a refusal", async () => {
  const rules = JSON.stringify({ permissions: { deny: ["write_file(secret.txt)"] } });
  const write = (path: string) => ({
    name: "write_file",
    arguments: JSON.stringify({ path, content: "x\n" }),
  });
  const denied = await headless(
    [{ toolCalls: [write("secret.txt")] }, { text: "Not allowed." }],
    ["--approve", "edits", "--output", "json"],
    { ".tern/settings.json": rules },
  );
  assertEquals(denied.code, 0, denied.stderr);
  assertEquals(JSON.parse(denied.stdout).permission_denials.length, 1);
  const refused = await headless([{ toolCalls: [write("a.txt")] }, { text: "No." }], ["--output", "json"]);
  assertEquals(refused.code, 3, refused.stderr);
  const result = JSON.parse(refused.stdout);
  assertEquals([result.exit_reason, result.partial, result.permission_denials.length], ["done", true, 1]);
});
