/** A refused huge argument is kept in what the model is sent only as much as the refusal needs: the task goes on. */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

type Sent = { role: string; content: string };

Deno.test("tern -p: a 20 MB write_file content and a 1 MB old_text are refused, the model reads why, and the task ends done", async () => {
  await using project = await tempProject({ "a.txt": "hello\n" });
  const big = "x".repeat(20 * 1024 * 1024);
  const old = "y".repeat(1024 * 1024);
  // Big arguments arrive in big fragments (the fake's default of 4 characters would take minutes).
  await using model = await startFakeModel([
    {
      toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "big.txt", content: big }) }],
      chunkSize: 1_000_000,
    },
    { toolCalls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] },
    {
      toolCalls: [{
        name: "edit_file",
        arguments: JSON.stringify({ path: "a.txt", old_text: old, new_text: "z" }),
      }],
      chunkSize: 1_000_000,
    },
    { text: "Recovered." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "go", "--approve", "all", "--output", "json"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assertEquals([result.exit_reason, result.text], ["done", "Recovered."]);
  assertEquals(model.requests.length, 4);
  for (const body of model.requests) {
    const bytes = JSON.stringify(body).length;
    assert(bytes < 64_000, `a request of ${bytes} bytes carried the refused argument`);
  }
  const refusal = (i: number) => (model.requests[i].messages as Sent[]).at(-1)!.content;
  assertStringIncludes(refusal(1), "content is 20.0 MB; write_file takes at most 10 MB");
  assertStringIncludes(refusal(3), "old_text was not found in a.txt");
  assertEquals(await Deno.lstat(`${project.root}/big.txt`).then(() => true, () => false), false);
  assertEquals(await Deno.readTextFile(`${project.root}/a.txt`), "hello\n");
});
