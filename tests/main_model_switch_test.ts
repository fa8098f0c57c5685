/**
 * Switching model through the real CLI (issue: the key followed the wrong vendor, `/model` dropped a custom
 * endpoint). Two fake servers stand for two vendors; `<NAME>_BASE_URL` points a preset at one of them.
 */
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

Deno.test("/model anthropic sends ANTHROPIC_API_KEY to Anthropic's endpoint, never TERN_API_KEY; the status line follows", async () => {
  await using project = await tempProject({ "notes.txt": "token sk-ant-SECRET-1\n" });
  await using deepseek = startFakeModel([{ text: "first answer" }, { text: "third answer" }]);
  await using anthropic = startFakeModel([
    { toolCalls: [{ name: "execute_command", arguments: '{"command":"cat notes.txt"}' }] },
    { text: "second answer" },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["--approve", "all", "--sandbox", "off"],
    env: {
      TERN_API_KEY: "sk-tern",
      DEEPSEEK_BASE_URL: deepseek.url,
      ANTHROPIC_BASE_URL: anthropic.root,
      ANTHROPIC_API_KEY: "sk-ant-SECRET-1",
    },
    input: "one\n/model anthropic/claude-x\ntwo\n/model deepseek\nthree\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(deepseek.keys, ["sk-tern", "sk-tern"]);
  assertEquals(anthropic.keys, ["sk-ant-SECRET-1", "sk-ant-SECRET-1"]);
  assertEquals(anthropic.requests.map((body) => body.model), ["claude-x", "claude-x"]);
  assertStringIncludes(
    run.stdout,
    `Switched to claude-x via Anthropic (anthropic wire) at ${anthropic.root}`,
  );
  assertStringIncludes(run.stdout, "\nclaude-x · context");
  // The new key is redacted from command output like the first one.
  assertEquals(JSON.stringify(anthropic.requests[1]).includes("sk-ant-SECRET-1"), false);
  assertEquals(deepseek.requests.length, 2);
});

Deno.test("/model to a vendor without its own key stops in one line naming the variable; the model stays", async () => {
  await using project = await tempProject({});
  await using deepseek = startFakeModel([{ text: "first" }, { text: "second" }]);
  await using anthropic = startFakeModel([{ text: "never" }]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: { TERN_API_KEY: "sk-tern", DEEPSEEK_BASE_URL: deepseek.url, ANTHROPIC_BASE_URL: anthropic.root },
    input: "one\n/model anthropic\ntwo\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "Not switched: no API key for Anthropic: set ANTHROPIC_API_KEY");
  assertEquals(anthropic.requests.length, 0);
  assertEquals(deepseek.keys, ["sk-tern", "sk-tern"]);
});

Deno.test("/model MODEL on a custom endpoint keeps the endpoint, the wire and the key", async () => {
  await using project = await tempProject({});
  await using local = startFakeModel([{ text: "first" }, { text: "second" }]);
  const run = await runTern({
    cwd: project.root,
    args: ["--base-url", local.url, "--model", "fake-a"],
    env: { TERN_API_KEY: "sk-local" },
    input: "one\n/model mock-model\ntwo\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(
    run.stdout,
    "Switched to mock-model via custom (chat wire); the conversation continues.",
  );
  assertEquals(local.requests.map((body) => body.model), ["fake-a", "mock-model"]);
  assertEquals(local.keys, ["sk-local", "sk-local"]);
});

Deno.test("--fallback anthropic takes ANTHROPIC_API_KEY to Anthropic's endpoint when the first is down", async () => {
  await using project = await tempProject({});
  const down = { status: 503, retryAfter: "0" };
  await using deepseek = startFakeModel([down, down, down]);
  await using anthropic = startFakeModel([{ text: "from the fallback" }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "hi", "--fallback", "anthropic/claude-x"],
    env: {
      TERN_API_KEY: "sk-tern",
      DEEPSEEK_BASE_URL: deepseek.url,
      ANTHROPIC_BASE_URL: anthropic.root,
      ANTHROPIC_API_KEY: "sk-ant",
    },
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "from the fallback\n");
  assertEquals(deepseek.keys.every((key) => key === "sk-tern"), true);
  assertEquals(anthropic.keys, ["sk-ant"]);
});

Deno.test("a resumed session continues on the model it ended with, on that vendor's own key", async () => {
  await using project = await tempProject({});
  await using deepseek = startFakeModel([{ text: "first" }]);
  await using anthropic = startFakeModel([{ text: "second" }, { text: "third" }]);
  const env = {
    TERN_API_KEY: "sk-tern",
    DEEPSEEK_BASE_URL: deepseek.url,
    ANTHROPIC_BASE_URL: anthropic.root,
    ANTHROPIC_API_KEY: "sk-ant",
  };
  const first = await runTern({
    cwd: project.root,
    args: [],
    env,
    input: "one\n/model anthropic/claude-x\ntwo\n/exit\n",
  });
  assertEquals(first.code, 0, first.stderr);
  const resumed = await runTern({ cwd: project.root, args: ["-c", "-p", "three"], env });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertEquals(resumed.stdout, "third\n");
  assertEquals(anthropic.requests.map((body) => body.model), ["claude-x", "claude-x"]);
  assertEquals(anthropic.keys, ["sk-ant", "sk-ant"]);
  assertEquals(deepseek.requests.length, 1);
});
