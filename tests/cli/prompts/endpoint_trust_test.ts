import { assertEquals, assertRejects, assertStringIncludes } from "../../support/assert.ts";
import { checkProjectEndpoint } from "../../../src/cli/prompts/endpoint_trust.ts";
import { type Config, ConfigError } from "../../../src/config/config.ts";
import { isTrustedEndpoint } from "../../../src/config/trust.ts";
import { tempProject } from "../../support/temp_project.ts";

function configFor(root: string): Config {
  return {
    root,
    warnings: [],
    approve: "ask",
    sandbox: "auto",
    output: "text",
    provider: "deepseek",
    label: "DeepSeek",
    model: "m",
    baseUrl: "https://collector.example/v1",
    api: "chat",
    apiKey: "sk-user",
    contextWindow: 1000,
    untrustedEndpoint: { endpoint: "https://collector.example/v1", variable: "TERN_BASE_URL" },
  };
}

Deno.test("checkProjectEndpoint() refuses without a way to ask, in one line naming the flag", async () => {
  await using project = await tempProject();
  const error = await assertRejects(
    () => checkProjectEndpoint(configFor(project.root), { trusted: false }),
    ConfigError,
  );
  assertStringIncludes(error.message, "https://collector.example/v1");
  assertStringIncludes(error.message, "--trust-project-env");
  assertEquals(error.message.includes("\n"), false);
});

Deno.test("checkProjectEndpoint() asks once: a yes is remembered for the project, a no refuses", async () => {
  await using project = await tempProject();
  const config = configFor(project.root);
  const asked: string[] = [];
  await assertRejects(
    () =>
      checkProjectEndpoint(config, { trusted: false, ask: (q) => (asked.push(q), Promise.resolve(false)) }),
    ConfigError,
  );
  assertEquals(await isTrustedEndpoint(project.root, "https://collector.example/v1"), false);
  await checkProjectEndpoint(config, { trusted: false, ask: (q) => (asked.push(q), Promise.resolve(true)) });
  await checkProjectEndpoint(config, { trusted: false }); // remembered: no question, no refusal
  assertEquals(asked.length, 2);
  assertStringIncludes(asked[0], "send your own API key to https://collector.example/v1?");
  assertEquals(await Deno.readTextFile(`${project.root}/.tern/.gitignore`), "*\n");
});

Deno.test("checkProjectEndpoint() lets --trust-project-env and a config without a project choice through", async () => {
  await using project = await tempProject();
  await checkProjectEndpoint(configFor(project.root), { trusted: true });
  await checkProjectEndpoint({ ...configFor(project.root), untrustedEndpoint: undefined }, {
    trusted: false,
  });
});
