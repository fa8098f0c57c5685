/** End to end over each wire: the real CLI entry, a temp project, the fake server speaking that wire. */
import { assertEquals, assertMatch, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

// Every tool-call turn thinks first, so each wire must send its reasoning back (the fake checks it).
const EDIT_SCRIPT: ScriptedTurn[] = [
  {
    reasoning: "Let me look at the file first.",
    toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }],
  },
  {
    reasoning: "It says Hello World; change it.",
    text: "Changing the greeting.",
    toolCalls: [{
      name: "edit_file",
      arguments: '{"path":"hello.txt","old_text":"Hello World","new_text":"Hello Agent"}',
    }],
  },
  {
    reasoning: "Check the result.",
    toolCalls: [{ name: "execute_command", arguments: '{"command":"cat hello.txt"}' }],
  },
  { reasoning: "All good.", text: "hello.txt now says Hello Agent." },
];

for (const api of ["chat", "responses", "anthropic"] as const) {
  Deno.test(`tern -p --api ${api} reads, edits, runs a command and answers, reasoning round-tripped`, async () => {
    await using project = await tempProject({ "hello.txt": "Hello World\n" });
    await using model = startFakeModel(EDIT_SCRIPT);
    const run = await runTern({
      cwd: project.root,
      args: ["-p", "change the greeting", "--approve", "all", "--api", api],
      env: {
        TERN_BASE_URL: api === "anthropic" ? model.root : model.url,
        TERN_API_KEY: "test-key",
        TERN_MODEL: "fake-model",
      },
    });
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "hello.txt now says Hello Agent.\n");
    assertEquals(await Deno.readTextFile(`${project.root}/hello.txt`), "Hello Agent\n");
    // Four requests, all accepted by the wire's history checks (a rejected one would have failed the run).
    assertEquals(model.wires, [api, api, api, api]);
    const last = JSON.stringify(model.requests[3]);
    assertStringIncludes(last, "Hello Agent");
    if (api === "anthropic") assertMatch(last, /"signature":"sig-2-17"/);
    if (api === "responses") assertMatch(last, /"encrypted_content":"enc:2:/);
  });
}

Deno.test("tern -p --require-tools with an unknown tool exits 2 naming it and the known tools", async () => {
  await using project = await tempProject({});
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "x", "--require-tools", "list_dir,read_everything"],
    env: { TERN_BASE_URL: "http://127.0.0.1:9/v1", TERN_API_KEY: "k" },
  });
  assertEquals(run.code, 2);
  assertMatch(
    run.stderr,
    /^tern: --require-tools names unknown tool\(s\) read_everything; known tools: .*list_dir/,
  );
});

Deno.test("tern -p with an unknown --api exits 2 with one line naming the wires", async () => {
  await using project = await tempProject({});
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "x", "--api", "soap"],
    env: { TERN_API_KEY: "k" },
  });
  assertEquals(run.code, 2);
  assertEquals(run.stderr, "tern: --api must be one of chat, responses, anthropic (got 'soap')\n");
});

Deno.test("tern -p against a custom base URL names it 'custom' when the model is not found", async () => {
  await using project = await tempProject({});
  await using model = startFakeModel([{ status: 404, errorBody: '{"error":{"message":"no such model"}}' }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "x", "--base-url", model.url, "--model", "ghost"],
    env: {},
  });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, 'Model "ghost" was not found at custom');
  assertStringIncludes(run.stderr, "custom said: HTTP 404");
});

Deno.test("tern -p --fallback with a malformed value or a provider without a key exits 2 in one line", async () => {
  await using project = await tempProject({});
  const env = { TERN_API_KEY: "", DEEPSEEK_API_KEY: "k" };
  const bad = await runTern({ cwd: project.root, args: ["-p", "x", "--fallback", "/gpt"], env });
  assertEquals(bad.code, 2);
  assertMatch(bad.stderr, /^tern: --fallback must be PROVIDER or PROVIDER\/MODEL, e\.g\. /);
  const keyless = await runTern({ cwd: project.root, args: ["-p", "x", "--fallback", "xai/grok"], env });
  assertEquals(keyless.code, 2);
  assertMatch(
    keyless.stderr,
    /^tern: --fallback: no API key for xAI: set XAI_API_KEY in the environment or in \.env /,
  );
});

Deno.test("tern's REPL banner names a custom endpoint by its host; /model lists the presets and refuses a keyless switch", async () => {
  await using project = await tempProject({});
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: { TERN_BASE_URL: "http://127.0.0.1:9/v1", TERN_API: "anthropic" },
    input: "/model\n/model xai/grok-x\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "deepseek-chat via custom endpoint 127.0.0.1:9 · approval: ask");
  assertStringIncludes(run.stdout, "Now: deepseek-chat via custom (anthropic wire).");
  assertMatch(run.stdout, /\n {2}anthropic +claude-sonnet-4-5 · anthropic · ANTHROPIC_API_KEY\n/);
  assertStringIncludes(run.stdout, "Not switched: no API key for xAI: set XAI_API_KEY in the environment");
});
