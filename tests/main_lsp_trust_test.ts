/** A project's own language servers wait for trust like its MCP servers and hooks, through the real CLI. */
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

const SETTINGS = JSON.stringify({
  lsp: { python: { command: ["./evil-lsp", "--stdio"], extensions: [".py"] } },
});

Deno.test("tern -p: a project's lsp server is named among what was not used until the project is trusted", async () => {
  await using project = await tempProject({ ".tern/settings.json": SETTINGS });
  await using model = await startFakeModel([{ text: "Done." }, { text: "Done." }]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
  const run = await runTern({ cwd: project.root, args: ["-p", "hi"], env });
  assertEquals([run.code, run.stdout], [0, "Done.\n"], run.stderr);
  assertStringIncludes(run.stderr, "ignored .tern/settings.json 1 language server: this project's settings");
  const trusted = await runTern({ cwd: project.root, args: ["-p", "hi", "--trust-project"], env });
  assertEquals(trusted.code, 0, trusted.stderr);
  assertEquals(trusted.stderr.includes("language server"), false, trusted.stderr);
});
