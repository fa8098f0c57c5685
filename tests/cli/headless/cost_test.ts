/** cost_usd is null wherever the price is unknown, the same in every output: json, stream-json, the REPL. */
import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

const usage = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };

Deno.test("a custom endpoint whose model tern only guessed: cost_usd null in json and stream-json, 'unknown price' in the REPL", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel((_body, i) => ({ text: `Answer ${i}.`, usage }));
  // No model named: tern guesses one for the endpoint, and a guess has no price there.
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k" };
  const json = await runTern({ cwd: project.root, args: ["-p", "hi", "--output", "json"], env });
  assertEquals(json.code, 0, json.stderr);
  assertEquals(JSON.parse(json.stdout).usage.cost_usd, null);
  const stream = await runTern({ cwd: project.root, args: ["-p", "hi", "--output", "stream-json"], env });
  const result = stream.stdout.trim().split("\n").map((line) => JSON.parse(line)).find((e) =>
    e.type === "result"
  );
  assertEquals(result.usage.cost_usd, null);
  const repl = await runTern({ cwd: project.root, args: [], env, input: "hi\n/cost\n/exit\n" });
  assertEquals(repl.code, 0, repl.stderr);
  assertStringIncludes(repl.stdout, "unknown price");
});

Deno.test("a named model with a known price: json's cost_usd is the price the status line shows", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "ok", usage }]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "deepseek-chat" };
  const json = await runTern({ cwd: project.root, args: ["-p", "hi", "--output", "json"], env });
  assertEquals(json.code, 0, json.stderr);
  const cost = JSON.parse(json.stdout).usage.cost_usd;
  assertEquals(typeof cost, "number");
});
