/** Retries through the real CLI: attempts, TERN_MAX_RETRIES, cut answers, silent streams, empty answers. */
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

/** Runs `tern -p go ARGS` against `script` (spawnTern's backoff starts at 1 ms); extra environment wins. */
async function run(script: ScriptedTurn[], env: Record<string, string> = {}, args: string[] = []) {
  await using project = await tempProject();
  await using model = startFakeModel(script);
  const result = await runTern({
    cwd: project.root,
    args: ["-p", "go", ...args],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "m", ...env },
  });
  const requests = model.requests.length;
  const files: string[] = [];
  for await (const entry of Deno.readDir(project.root)) files.push(entry.name);
  return { ...result, requests, messages: model.requests.map((r) => r.messages), files: files.sort() };
}

Deno.test("tern -p makes up to six attempts by default on 429, 5xx and 529", async () => {
  const failures = [429, 500, 502, 503, 529].map((status) => ({ status }));
  const result = await run([...failures, { text: "Answered at last." }]);
  assertEquals([result.code, result.stdout], [0, "Answered at last.\n"], result.stderr);
  assertEquals(result.requests, 6);
  assertStringIncludes(result.stderr, "(529 overloaded), attempt 6/6");
});

Deno.test("tern -p honours TERN_MAX_RETRIES as the retries after the first attempt", async () => {
  const result = await run([{ status: 503 }, { status: 503 }, { text: "unused" }], { TERN_MAX_RETRIES: "1" });
  assertEquals(result.code, 1, result.stderr);
  assertEquals(result.requests, 2);
  assertStringIncludes(result.stderr, "gave up after 2 attempts");
});

Deno.test("tern -p resends after an overloaded error that arrives mid-answer, discarding the partial text", async () => {
  const result = await run([
    { text: "The first half of an ans", streamError: { message: "Overloaded", type: "overloaded_error" } },
    { text: "The whole answer." },
  ]);
  assertEquals([result.code, result.stdout], [0, "The whole answer.\n"], result.stderr);
  assertStringIncludes(result.stderr, "broke off (overloaded (said in the stream)); it is discarded");
});

Deno.test("tern -p retries a stream silent past TERN_STREAM_IDLE_TIMEOUT once, not more", async () => {
  const silent = { text: "slow answer", chunkSize: 1, chunkDelayMs: 5_000 };
  const result = await run([silent, silent, { text: "unused" }], { TERN_STREAM_IDLE_TIMEOUT: "1s" });
  assertEquals(result.code, 1, result.stderr);
  assertEquals(result.requests, 2);
  assertStringIncludes(result.stderr, "(stream silent), attempt 2/6");
  assertStringIncludes(result.stderr, "no data within 1 s");
});

Deno.test("tern -p asks once more after an empty answer", async () => {
  const result = await run([{ text: "" }, { text: "Now with words." }]);
  assertEquals([result.code, result.stdout], [0, "Now with words.\n"], result.stderr);
  assertStringIncludes(result.stderr, "(empty answer), attempt 2/6");
});

Deno.test("tern -p never runs a write cut by the output limit; the model is told and writes again", async () => {
  const result = await run(
    [
      {
        toolCalls: [{ name: "write_file", arguments: '{"path":"big.txt","content":"aaaaaaaaaaaa' }],
        finishReason: "length",
      },
      { toolCalls: [{ name: "write_file", arguments: '{"path":"small.txt","content":"a"}' }] },
      { text: "Wrote small.txt." },
    ],
    {},
    ["--approve", "edits"],
  );
  assertEquals([result.code, result.stdout], [0, "Wrote small.txt.\n"], result.stderr);
  assertEquals(result.files.filter((name) => name.endsWith(".txt")), ["small.txt"]);
  const told = (result.messages[1] as { content: string }[]).at(-1)!.content;
  assertStringIncludes(told, "cut off by the output limit while you were writing a call to write_file");
});
