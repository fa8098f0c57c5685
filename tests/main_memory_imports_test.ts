/** `@path` imports in AGENTS.md end to end: the real CLI, the fake model, the system prompt it receives. */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

Deno.test("tern -p expands AGENTS.md's @imports inside the root and refuses a cycle and a path outside, one line each", async () => {
  await using project = await tempProject({
    "AGENTS.md": "# Guide\nTesting: @docs/testing.md\nSecrets: @../outside/secret.txt\n",
    "docs/testing.md": "Run deno task test. Back to @../AGENTS.md\n",
  });
  await using model = startFakeModel([{ text: "ok" }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "hello"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals(run.code, 0, run.stderr);
  const system = (model.requests[0].messages as { content: string }[])[0].content;
  assertStringIncludes(
    system,
    '<imported path="docs/testing.md">\nRun deno task test. Back to @../AGENTS.md\n</imported>',
  );
  assert(!system.includes("outside secret"), "nothing from outside the root reaches the prompt");
  assertStringIncludes(
    run.stderr,
    "tern: AGENTS.md: @../outside/secret.txt is outside the project root (tern reads nothing outside the project); not imported\n",
  );
  assertStringIncludes(
    run.stderr,
    "tern: AGENTS.md → docs/testing.md → AGENTS.md: an import cycle; not imported again\n",
  );
});
