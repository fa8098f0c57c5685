import { assertEquals, assertErrorLike, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { tempProject } from "../support/temp_project.ts";
import { parseCliArgs } from "../../src/cli/args.ts";
import { type Config, loadConfig } from "../../src/config/config.ts";
import { switchProvider } from "../../src/config/provider_switch.ts";

/** A temp project, with a `.env` holding `dotenv` when given. */
function tempRoot(dotenv?: string) {
  return tempProject(dotenv === undefined ? {} : { ".env": dotenv });
}

/** The configuration a start with `argv` and `env` in `root` gets (no local server looked for). */
function load(root: string, argv: string[], env: Record<string, string>): Promise<Config> {
  return loadConfig({ args: parseCliArgs(argv), env, root, probeLocal: () => Promise.resolve(null) });
}

Deno.test("switchProvider() moves to a preset's endpoint, wire and key, keeping the run settings", async () => {
  await using root = await tempRoot("ANTHROPIC_API_KEY=sk-ant\n");
  const start = await load(root.root, ["--max-turns", "7"], { DEEPSEEK_API_KEY: "sk-ds" });
  const moved = await switchProvider(start, { provider: "anthropic", model: "claude-x" }, {});
  assertEquals(
    [moved.provider, moved.label, moved.model, moved.baseUrl, moved.api, moved.apiKey, moved.maxTurns],
    ["anthropic", "Anthropic", "claude-x", "https://api.anthropic.com", "anthropic", "sk-ant", 7],
  );
  assertStrictEquals((await switchProvider(start, { provider: "ollama" }, {})).apiKey, undefined);
});

Deno.test("switchProvider() refuses an unknown provider or a missing key in one line", async () => {
  await using root = await tempRoot();
  const start = await load(root.root, [], { DEEPSEEK_API_KEY: "sk-ds" });
  assertErrorLike(await assertRejects(() => switchProvider(start, { provider: "nosuch" }, {})), {
    name: "ConfigError",
    message: /^unknown provider 'nosuch' \(from \/model\); known providers: deepseek, /,
  });
  assertErrorLike(await assertRejects(() => switchProvider(start, { provider: "xai" }, {})), {
    message: /^no API key for xAI: set XAI_API_KEY in the environment or in \.env /,
  });
});

Deno.test("switchProvider(): TERN_API_KEY stays with the endpoint chosen at start, never another vendor's", async () => {
  await using root = await tempRoot();
  const env = { TERN_API_KEY: "sk-tern", ANTHROPIC_API_KEY: "sk-ant" };
  const start = await load(root.root, [], env);
  assertStrictEquals(start.apiKey, "sk-tern");
  const moved = await switchProvider(start, { provider: "anthropic" }, env, start);
  assertEquals([moved.baseUrl, moved.apiKey], ["https://api.anthropic.com", "sk-ant"]);
  const back = await switchProvider(moved, { provider: "deepseek", model: "deepseek-reasoner" }, env, start);
  assertEquals([back.baseUrl, back.apiKey, back.model], [
    "https://api.deepseek.com",
    "sk-tern",
    "deepseek-reasoner",
  ]);
  assertErrorLike(
    await assertRejects(() =>
      switchProvider(start, { provider: "anthropic" }, { TERN_API_KEY: "sk-tern" }, start)
    ),
    {
      message: /^no API key for Anthropic: set ANTHROPIC_API_KEY .*TERN_API_KEY is only sent to the endpoint/,
    },
  );
});

Deno.test("switchProvider() with a model only keeps a custom endpoint, its wire and its key", async () => {
  await using root = await tempRoot();
  const env = { TERN_API_KEY: "sk-local", TERN_BASE_URL: "http://127.0.0.1:9/v1", TERN_API: "responses" };
  const start = await load(root.root, [], env);
  const moved = await switchProvider(start, { model: "mock-model" }, env, start);
  assertEquals(
    [moved.label, moved.baseUrl, moved.api, moved.apiKey, moved.model],
    ["custom", "http://127.0.0.1:9/v1", "responses", "sk-local", "mock-model"],
  );
});
