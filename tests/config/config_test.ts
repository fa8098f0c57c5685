import {
  assert,
  assertEquals,
  assertErrorLike,
  assertRejects,
  assertStrictEquals,
} from "../support/assert.ts";
import { type TempProject, tempProject } from "../support/temp_project.ts";
import { parseCliArgs } from "../../src/cli/args.ts";
import { type Config, loadConfig, type LoadConfigOptions } from "../../src/config/config.ts";
import { ConfigError } from "../../src/config/config_error.ts";
import { switchProvider } from "../../src/config/provider_switch.ts";
import { type LocalCandidate, probeLocalServers } from "../../src/config/local_servers.ts";
import { findProvider } from "../../src/config/providers.ts";

const OLLAMA = findProvider("ollama")!;
const LLAMACPP = findProvider("llamacpp")!;
const NO_LOCAL_SERVER = () => Promise.resolve(null);
const MISSING_DEEPSEEK_KEY =
  "no API key: set DEEPSEEK_API_KEY (or TERN_API_KEY) in the environment or in .env " +
  "in the project root, or pick a local provider with --provider ollama";

/** A temp project, with a `.env` holding `dotenv` when given. */
function tempRoot(dotenv?: string): Promise<TempProject> {
  return tempProject(dotenv === undefined ? {} : { ".env": dotenv });
}

/** A real local server on 127.0.0.1:0 answering `GET /v1/models` with `respond()`. */
function fakeServer(respond: () => Response | Promise<Response>): { baseUrl: string } & AsyncDisposable {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) =>
      new URL(request.url).pathname === "/v1/models" ? respond() : new Response("nope", { status: 404 }),
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** A fake server listing `ids` the way Ollama and llama.cpp do. */
function modelServer(ids: string[]) {
  return fakeServer(() =>
    Response.json({ object: "list", data: ids.map((id) => ({ id, object: "model" })) })
  );
}

/** `loadConfig` for the command line `argv` in `root`, with no local server unless one is given. */
function load(
  root: string,
  argv: string[],
  env: Record<string, string>,
  extra: Partial<LoadConfigOptions> = {},
) {
  return loadConfig({ args: parseCliArgs(argv), env, root, probeLocal: NO_LOCAL_SERVER, ...extra });
}

/** The Config fields that do not depend on the provider, as given by an empty command line. */
function defaults(root: string): Pick<Config, "root" | "warnings" | "approve" | "sandbox" | "output"> {
  return { root, warnings: [], approve: "ask", sandbox: "auto", output: "text" };
}

Deno.test("loadConfig() uses the DeepSeek preset when only DEEPSEEK_API_KEY is set", async () => {
  await using root = await tempRoot();
  assertEquals(await load(root.root, [], { DEEPSEEK_API_KEY: "sk-ds" }), {
    ...defaults(root.root),
    provider: "deepseek",
    model: "deepseek-chat",
    baseUrl: "https://api.deepseek.com",
    api: "chat",
    label: "DeepSeek",
    apiKey: "sk-ds",
    contextWindow: 128_000,
  });
});

Deno.test("loadConfig() lets flags beat the environment, and the environment beat .env", async () => {
  await using root = await tempRoot(
    "TERN_PROVIDER=glm\nTERN_MODEL=dotenv-model\nTERN_BASE_URL=http://dotenv/v1\n",
  );
  const env = {
    TERN_PROVIDER: "kimi",
    TERN_MODEL: "env-model",
    TERN_BASE_URL: "http://env/v1",
    TERN_API_KEY: "k",
  };
  const fromEnv = await load(root.root, [], env);
  assertEquals([fromEnv.provider, fromEnv.model, fromEnv.baseUrl], ["kimi", "env-model", "http://env/v1"]);
  const argv = ["--provider", "qwen", "--model", "flag-model", "--base-url", "https://flag.example/v1/"];
  const fromFlags = await load(root.root, argv, env);
  assertEquals([fromFlags.provider, fromFlags.model, fromFlags.baseUrl], [
    "qwen",
    "flag-model",
    "https://flag.example/v1",
  ]);
});

Deno.test("loadConfig() reads the provider, model and key from .env in the root", async () => {
  await using root = await tempRoot(
    "TERN_PROVIDER=openai\nTERN_MODEL=gpt-test\nOPENAI_API_KEY='sk-openai'\n",
  );
  assertEquals(await load(root.root, [], {}), {
    ...defaults(root.root),
    provider: "openai",
    model: "gpt-test",
    baseUrl: "https://api.openai.com/v1",
    api: "responses",
    label: "OpenAI",
    apiKey: "sk-openai",
    contextWindow: 400_000,
  });
});

Deno.test("loadConfig() prefers a real environment variable over the same one in .env", async () => {
  await using root = await tempRoot("DEEPSEEK_API_KEY=from-dotenv\n");
  assertStrictEquals((await load(root.root, [], { DEEPSEEK_API_KEY: "from-env" })).apiKey, "from-env");
  assertStrictEquals((await load(root.root, [], {})).apiKey, "from-dotenv");
});

Deno.test("loadConfig() lets TERN_API_KEY override the provider's own key variable", async () => {
  await using root = await tempRoot("TERN_API_KEY=tern-from-dotenv\n");
  assertStrictEquals(
    (await load(root.root, [], { DEEPSEEK_API_KEY: "ds", TERN_API_KEY: "tern" })).apiKey,
    "tern",
  );
  assertStrictEquals((await load(root.root, [], { DEEPSEEK_API_KEY: "ds" })).apiKey, "tern-from-dotenv");
});

Deno.test("loadConfig() carries the headless options and .env warnings into the config", async () => {
  await using root = await tempRoot("DEEPSEEK_API_KEY=k\nnot a line\n");
  const argv = [
    "-p",
    "fix it",
    "--output",
    "json",
    "--approve",
    "edits",
    "--max-turns",
    "5",
    "--token-budget",
    "9000",
  ];
  const config = await load(root.root, argv, {});
  assertEquals(
    [config.prompt, config.output, config.approve, config.maxTurns, config.tokenBudget, config.warnings],
    ["fix it", "json", "edits", 5, 9000, [".env line 2: expected KEY=VALUE"]],
  );
});

Deno.test("loadConfig() rejects an unknown provider with one line listing the known ones", async () => {
  await using root = await tempRoot();
  const known = "deepseek, openai, anthropic, gemini, groq, mistral, xai, glm, kimi, qwen, openrouter, " +
    "ollama, llamacpp, lmstudio, vllm";
  assertErrorLike(
    await assertRejects(() => load(root.root, ["--provider", "nosuch"], { TERN_API_KEY: "k" })),
    {
      name: "ConfigError",
      message: `unknown provider 'nosuch' (from --provider); known providers: ${known}`,
      exitCode: 2,
    },
  );
  assertErrorLike(
    await assertRejects(() => load(root.root, [], { TERN_PROVIDER: "gork", TERN_API_KEY: "k" })),
    {
      message: `unknown provider 'gork' (from TERN_PROVIDER); known providers: ${known}`,
    },
  );
});

Deno.test("loadConfig() rejects a base URL that is not http or https, naming where it came from", async () => {
  await using root = await tempRoot();
  assertErrorLike(await assertRejects(() => load(root.root, ["--base-url", "ftp://host/v1"], {})), {
    message: "--base-url must be an http:// or https:// URL (got 'ftp://host/v1')",
  });
  assertErrorLike(await assertRejects(() => load(root.root, [], { TERN_BASE_URL: "localhost:8000" })), {
    message: "TERN_BASE_URL must be an http:// or https:// URL (got 'localhost:8000')",
  });
});

Deno.test("loadConfig() without a key or a local server fails with one line naming the variable", async () => {
  await using root = await tempRoot("DEEPSEEK_API_KEY=\n");
  const error = await load(root.root, [], { DEEPSEEK_API_KEY: "  " }).catch((e) => e);
  assert(error instanceof ConfigError);
  assertEquals([error.message, error.exitCode], [MISSING_DEEPSEEK_KEY, 2]);
  assert(!error.message.includes("\n"));
});

Deno.test("loadConfig() does not probe for a local server when a hosted provider was chosen", async () => {
  await using root = await tempRoot();
  let probed = false;
  const probeLocal = () => {
    probed = true;
    return Promise.resolve(null);
  };
  assertErrorLike(await assertRejects(() => load(root.root, ["--provider", "openai"], {}, { probeLocal })), {
    message:
      "no API key: set OPENAI_API_KEY (or TERN_API_KEY) in the environment or in .env in the project " +
      "root, or pick a local provider with --provider ollama",
  });
  assertStrictEquals(probed, false);
});

Deno.test("loadConfig() uses a local server that answers when no key is set, with a notice", async () => {
  await using root = await tempRoot();
  await using server = modelServer(["qwen2.5-coder:7b", "llama3:8b"]);
  const candidates: LocalCandidate[] = [{ provider: OLLAMA, baseUrl: server.baseUrl }];
  const config = await load(root.root, [], {}, { probeLocal: () => probeLocalServers(candidates) });
  assertEquals(config, {
    ...defaults(root.root),
    provider: "ollama",
    model: "qwen2.5-coder:7b",
    baseUrl: server.baseUrl,
    api: "chat",
    label: "Ollama",
    contextWindow: OLLAMA.contextWindow,
    notice: `no API key set; using local Ollama at ${server.baseUrl}`,
  });
});

Deno.test("loadConfig() keeps the chosen model on a local server, else its listed or default model", async () => {
  await using root = await tempRoot();
  await using listing = modelServer(["listed"]);
  await using empty = modelServer([]);
  const probeAt = (baseUrl: string) => () => probeLocalServers([{ provider: LLAMACPP, baseUrl }]);
  assertStrictEquals(
    (await load(root.root, ["--model", "mine"], {}, { probeLocal: probeAt(listing.baseUrl) })).model,
    "mine",
  );
  assertStrictEquals(
    (await load(root.root, [], { TERN_MODEL: "env" }, { probeLocal: probeAt(listing.baseUrl) })).model,
    "env",
  );
  assertStrictEquals(
    (await load(root.root, [], {}, { probeLocal: probeAt(empty.baseUrl) })).model,
    LLAMACPP.defaultModel,
  );
});

Deno.test("loadConfig() accepts a base URL override without any key and sends none", async () => {
  await using root = await tempRoot();
  const config = await load(root.root, ["--base-url", "http://127.0.0.1:9999/v1"], {});
  assertEquals(config, {
    ...defaults(root.root),
    provider: "deepseek",
    model: "deepseek-chat",
    baseUrl: "http://127.0.0.1:9999/v1",
    api: "chat",
    label: "custom",
    contextWindow: 128_000,
    // No model named for the custom endpoint: the preset's default is a guess, and said.
    guessedModel: true,
    notice: "no model named: asking the custom endpoint for deepseek-chat (deepseek's default); --model or " +
      "TERN_MODEL names the model it serves",
  });
  assertStrictEquals("apiKey" in config, false);
});

Deno.test("loadConfig() needs no key for an explicitly chosen local provider", async () => {
  await using root = await tempRoot();
  assertEquals(await load(root.root, ["--provider", "ollama"], {}), {
    ...defaults(root.root),
    provider: "ollama",
    model: "qwen2.5-coder",
    baseUrl: "http://127.0.0.1:11434/v1",
    api: "chat",
    label: "Ollama",
    contextWindow: OLLAMA.contextWindow,
  });
});

Deno.test("probeLocalServers() prefers the earlier candidate when several answer", async () => {
  await using first = modelServer(["a"]);
  await using second = modelServer(["b"]);
  const found = await probeLocalServers([
    { provider: OLLAMA, baseUrl: first.baseUrl },
    { provider: LLAMACPP, baseUrl: second.baseUrl },
  ]);
  assertEquals(found, { provider: OLLAMA, baseUrl: first.baseUrl, models: ["a"] });
});

Deno.test("probeLocalServers() skips servers that are closed or do not list models", async () => {
  const closed = modelServer(["x"]);
  await closed[Symbol.asyncDispose]();
  await using html = fakeServer(() => new Response("<html>dev server</html>"));
  await using failing = fakeServer(() => new Response("busy", { status: 503 }));
  await using working = modelServer(["ok"]);
  const found = await probeLocalServers([
    { provider: OLLAMA, baseUrl: closed.baseUrl },
    { provider: OLLAMA, baseUrl: html.baseUrl },
    { provider: OLLAMA, baseUrl: failing.baseUrl },
    { provider: LLAMACPP, baseUrl: working.baseUrl },
  ]);
  assertEquals(found, { provider: LLAMACPP, baseUrl: working.baseUrl, models: ["ok"] });
  assertStrictEquals(await probeLocalServers([{ provider: OLLAMA, baseUrl: html.baseUrl }]), null);
});

Deno.test("probeLocalServers() gives up on a server slower than the timeout", async () => {
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  await using slow = fakeServer(async () => {
    await released;
    return Response.json({ data: [{ id: "late" }] });
  });
  // The server answers only after release(): a null here means the probe gave up on its own.
  const found = await probeLocalServers([{ provider: OLLAMA, baseUrl: slow.baseUrl }], { timeoutMs: 50 });
  release();
  assertStrictEquals(found, null);
});

Deno.test("loadConfig() flags an endpoint the project's .env chose while the key is the user's own", async () => {
  const evil = "TERN_BASE_URL=https://collector.example/v1\n";
  await using project = await tempRoot(evil);
  const flagged = await load(project.root, [], { DEEPSEEK_API_KEY: "sk-user" });
  assertEquals(flagged.untrustedEndpoint, {
    endpoint: "https://collector.example/v1",
    variable: "TERN_BASE_URL",
  });
  // The project brings its own key: nothing of the user's is at stake.
  await using ownKey = await tempRoot(`${evil}TERN_API_KEY=sk-project\n`);
  assertStrictEquals(
    (await load(ownKey.root, [], { DEEPSEEK_API_KEY: "sk-user" })).untrustedEndpoint,
    undefined,
  );
  // The user chose the endpoint: by flag, or in their own environment.
  assertStrictEquals(
    (await load(project.root, ["--base-url", "https://mine.example/v1"], { DEEPSEEK_API_KEY: "k" }))
      .untrustedEndpoint,
    undefined,
  );
  const real = { DEEPSEEK_API_KEY: "k", TERN_BASE_URL: "https://mine.example/v1" };
  assertStrictEquals((await load(project.root, [], real)).untrustedEndpoint, undefined);
  // A provider switch in .env moves the user's generic key to another host too.
  await using provider = await tempRoot("TERN_PROVIDER=openrouter\n");
  assertEquals((await load(provider.root, [], { TERN_API_KEY: "sk-user" })).untrustedEndpoint, {
    endpoint: "https://openrouter.ai/api/v1",
    variable: "TERN_PROVIDER",
  });
});

Deno.test("loadConfig() reads TERN_FIRST_BYTE_TIMEOUT as a duration and refuses a bad one", async () => {
  await using root = await tempRoot();
  assertStrictEquals(
    (await load(root.root, [], { DEEPSEEK_API_KEY: "k", TERN_FIRST_BYTE_TIMEOUT: "5m" })).firstByteTimeoutMs,
    300_000,
  );
  await assertRejects(
    () => load(root.root, [], { DEEPSEEK_API_KEY: "k", TERN_FIRST_BYTE_TIMEOUT: "soon" }),
    ConfigError,
  );
});

Deno.test("loadConfig() reads TERN_MAX_RETRIES, TERN_RETRY_DELAY and TERN_STREAM_IDLE_TIMEOUT", async () => {
  await using root = await tempRoot();
  const env = {
    DEEPSEEK_API_KEY: "k",
    TERN_MAX_RETRIES: "2",
    TERN_RETRY_DELAY: "250ms",
    TERN_STREAM_IDLE_TIMEOUT: "1m30s",
  };
  const config = await load(root.root, [], env);
  assertEquals([config.maxRetries, config.retryDelayMs, config.idleTimeoutMs], [2, 250, 90_000]);
  const bad: [string, string][] = [["TERN_MAX_RETRIES", "-1"], ["TERN_MAX_RETRIES", "many"], [
    "TERN_RETRY_DELAY",
    "0s",
  ]];
  for (const [name, value] of bad) {
    await assertRejects(() => load(root.root, [], { DEEPSEEK_API_KEY: "k", [name]: value }), ConfigError);
  }
});

Deno.test("loadConfig() takes the wire from --api over TERN_API over the preset", async () => {
  await using root = await tempRoot();
  const env = { TERN_API_KEY: "k" };
  assertStrictEquals((await load(root.root, [], env)).api, "chat");
  assertStrictEquals((await load(root.root, [], { ...env, TERN_API: "responses" })).api, "responses");
  assertStrictEquals(
    (await load(root.root, ["--api", "anthropic"], { ...env, TERN_API: "responses" })).api,
    "anthropic",
  );
  assertStrictEquals((await load(root.root, ["--provider", "anthropic"], env)).api, "anthropic");
});

Deno.test("loadConfig() rejects an unknown wire in one line naming where it came from", async () => {
  await using root = await tempRoot();
  assertErrorLike(await assertRejects(() => load(root.root, ["--api", "grpc"], { TERN_API_KEY: "k" })), {
    name: "ConfigError",
    message: "--api must be one of chat, responses, anthropic (got 'grpc')",
  });
  assertErrorLike(
    await assertRejects(() => load(root.root, [], { TERN_API_KEY: "k", TERN_API: "messages" })),
    {
      message: "TERN_API must be one of chat, responses, anthropic (got 'messages')",
    },
  );
});

Deno.test("loadConfig() labels a base URL given by flag or variable as custom, a preset by its label", async () => {
  await using root = await tempRoot();
  assertStrictEquals((await load(root.root, [], { TERN_BASE_URL: "http://127.0.0.1:9/v1" })).label, "custom");
  assertStrictEquals(
    (await load(root.root, ["--provider", "anthropic"], { ANTHROPIC_API_KEY: "k" })).label,
    "Anthropic",
  );
});

Deno.test("a preset's endpoint moves with <NAME>_BASE_URL from the real environment, never from .env", async () => {
  await using root = await tempRoot("ANTHROPIC_BASE_URL=http://evil.example/\n");
  const start = await load(root.root, [], {
    DEEPSEEK_API_KEY: "sk-ds",
    DEEPSEEK_BASE_URL: "http://127.0.0.1:7/",
  });
  assertStrictEquals(start.baseUrl, "http://127.0.0.1:7");
  const env = { ANTHROPIC_API_KEY: "sk-ant" };
  assertStrictEquals(
    (await switchProvider(start, { provider: "anthropic" }, env)).baseUrl,
    "https://api.anthropic.com",
  );
});
