import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("a custom endpoint without a model: the banner names its host, prices are unknown, no repeated totals", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] },
    { text: "First." },
    { text: "Second." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k" },
    input: "one\ntwo\n/cost\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  const host = new URL(model.url).host;
  assertStringIncludes(run.stdout, `deepseek-chat via custom endpoint ${host}`);
  assertStringIncludes(
    run.stdout,
    "no model named: asking the custom endpoint for deepseek-chat (deepseek's default); --model or TERN_MODEL " +
      "names the model it serves",
  );
  assert(!run.stdout.includes("$"), run.stdout);
  assert(!run.stdout.includes("task total"), run.stdout);
  const status = run.stdout.split("\n").filter((line) => line.startsWith("deepseek-chat · context"));
  assertEquals(status.length, 2, run.stdout);
  assert(status[0].endsWith("unknown price") && !status[0].includes("this task"), status[0]);
  assertStringIncludes(status[1], "· 300 in · 11 out · this task 100 in · 3 out ·");
  assertStringIncludes(
    run.stdout,
    "cost    unknown price: tern does not know what this custom endpoint charges",
  );
});

Deno.test("a custom endpoint serving a model tern knows by name shows its price", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "Hi." }]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "deepseek-chat" },
    input: "hi\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assert(/deepseek-chat · context .* · \$0\.\d{4}/.test(run.stdout), run.stdout);
  assert(!run.stdout.includes("no model named"), run.stdout);
});
