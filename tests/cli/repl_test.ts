import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { runTern } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("the REPL answers each line, keeps the conversation, and /clear starts a new one", async () => {
  await using project = await tempProject();
  const root = project.path;
  await using model = await startFakeModel([{ text: "First answer." }, { text: "Second answer." }, {
    text: "Third answer.",
  }]);
  const run = await runTern({
    cwd: root,
    args: [],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: "first task\nsecond task\n/clear\nthird task\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "fake-model");
  assertStringIncludes(run.stdout, `project root: ${root}`);
  for (const answer of ["First answer.", "Second answer.", "Third answer."]) {
    assertStringIncludes(run.stdout, answer);
  }
  const userTurns = (i: number) =>
    (model.requests[i].messages as { role: string }[]).filter((message) => message.role === "user").length;
  assertEquals([userTurns(0), userTurns(1), userTurns(2)], [1, 2, 1]);
});

Deno.test("the REPL explains an unknown slash command and exits at end of input", async () => {
  await using project = await tempProject();
  const root = project.path;
  const run = await runTern({
    cwd: root,
    args: [],
    env: { TERN_BASE_URL: "http://127.0.0.1:9/v1", TERN_API_KEY: "k" },
    input: "/frob\n/help\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "Unknown command /frob");
  assertStringIncludes(run.stdout, "/clear");
});
