import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "../support/fake_model_server.ts";
import { finished, runTern, spawnTern } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";

const SERVER = new URL("../support/mcp_server.ts", import.meta.url).pathname;

/**
 * A project whose .mcp.json starts the test server (outside the sandbox: tern's Deno may live where a
 * sandbox hides it); `mode` as tests/support/mcp_server.ts takes it.
 */
function mcpProject(mode = "ok") {
  const mcp = {
    mcpServers: {
      local: {
        command: Deno.execPath(),
        args: ["run", "--quiet", "--no-config", "--allow-read", SERVER, mode],
        sandbox: false,
      },
    },
  };
  return tempProject({ ".mcp.json": JSON.stringify(mcp) });
}

function toolNames(request: Record<string, unknown>): string[] {
  return (request.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
}

const SCRIPT: ScriptedTurn[] = [
  {
    toolCalls: [
      { name: "mcp__local__echo", arguments: '{"text":"hello from the model"}' },
      { name: "mcp__local__add_note", arguments: '{"note":"remember this"}' },
    ],
  },
  { text: "Done." },
];

type Message = { role: string; content: string; tool_call_id?: string };

function env(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

function toolMessages(model: { requests: Record<string, unknown>[] }): string[] {
  const messages = model.requests[1].messages as Message[];
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

Deno.test("tern -p calls a stdio MCP server's tools end to end with --trust-project-mcp", async () => {
  await using project = await mcpProject();
  await using model = await startFakeModel(SCRIPT);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "use the local server", "--trust-project-mcp", "--approve", "all"],
    env: env(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "Done.\n");
  const tools = toolNames(model.requests[0]);
  assert(tools.includes("mcp__local__echo") && tools.includes("mcp__local__add_note"), tools.join(","));
  assertStringIncludes(run.stderr, 'MCP server "local" is ready: its 2 tools join this conversation');
  const [echo, note] = toolMessages(model);
  assertMatch(echo, /^<tool_result>/);
  assertStringIncludes(echo, "echo: hello from the model");
  assertStringIncludes(note, "noted");
});

Deno.test("tern -p keeps approval: a trusted server's read-only tool runs, a writing one is refused without a terminal", async () => {
  await using project = await mcpProject();
  await using model = await startFakeModel(SCRIPT);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "use the local server", "--trust-project"],
    env: env(model.url),
  });
  assertEquals(run.code, 3, run.stderr); // finished without the refused call, named on stderr
  assertStringIncludes(run.stderr, "1 call was refused: mcp__local__add_note");
  const [echo, note] = toolMessages(model);
  assertStringIncludes(echo, "echo: hello from the model");
  assertStringIncludes(note, "mcp__local__add_note was not run: it needs approval");
  assertStringIncludes(note, "--approve all");
});

Deno.test("tern -p refuses an untrusted .mcp.json: no server starts and stderr says how to allow it", async () => {
  await using project = await mcpProject();
  await using model = await startFakeModel([{ text: "ok" }]);
  const run = await runTern({ cwd: project.root, args: ["-p", "hi"], env: env(model.url) });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(
    run.stderr,
    "tern: ignored .mcp.json (1 server): this project's settings are not trusted yet",
  );
  assertStringIncludes(run.stderr, "--trust-project");
  const tools = (model.requests[0].tools as { function: { name: string } }[]).map((t) => t.function.name);
  assert(!tools.some((name) => name.startsWith("mcp__")), tools.join(","));
});

Deno.test("an untrusted project's server (--trust-project-mcp alone): readOnlyHint does not skip the question", async () => {
  await using project = await mcpProject();
  await using model = await startFakeModel(SCRIPT);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "use the local server", "--trust-project-mcp"],
    env: env(model.url),
  });
  assertEquals(run.code, 3, run.stderr);
  assertStringIncludes(run.stderr, "2 calls were refused: mcp__local__echo");
  const [echo] = toolMessages(model);
  assertStringIncludes(echo, "mcp__local__echo was not run: it needs approval");
  assertStringIncludes(echo, 'a tool of the MCP server "local" (NOT sandboxed ("sandbox": false)');
});

Deno.test("tern -p waits for the trusted servers up to TERN_MCP_STARTUP_MS, and names one it went on without", async () => {
  await using project = await mcpProject("gate=/nonexistent/gate");
  await using model = await startFakeModel([{ text: "ok" }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "say ok", "--trust-project"],
    env: { ...env(model.url), TERN_MCP_STARTUP_MS: "300" },
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(
    run.stderr,
    'tern: MCP server "local" is still starting after 300 ms (TERN_MCP_STARTUP_MS); going on without its tools',
  );
});

Deno.test("tern -p waits for the servers until they are ready, whatever the task says: their tools are in the first request", async () => {
  await using project = await mcpProject();
  const gate = `${project.outside}/gate`;
  await Deno.writeTextFile(
    `${project.root}/.mcp.json`,
    (await Deno.readTextFile(`${project.root}/.mcp.json`)).replace('"ok"', JSON.stringify(`gate=${gate}`)),
  );
  await using model = await startFakeModel([{ text: "ok" }]);
  const child = await spawnTern({
    cwd: project.root,
    args: ["-p", "say ok", "--trust-project"],
    env: { ...env(model.url), TERN_MCP_STARTUP_MS: "600000" },
  });
  // Opened only once tern is running: before, the server cannot be ready.
  await Deno.writeTextFile(gate, "");
  const run = await finished(child);
  assertEquals(run.code, 0, run.stderr);
  assertEquals(model.requests.length, 1);
  assert(toolNames(model.requests[0]).includes("mcp__local__echo"), toolNames(model.requests[0]).join(","));
});

Deno.test("tern -p /mcp in a project whose servers are not trusted says why none runs", async () => {
  await using project = await mcpProject();
  await using model = await startFakeModel([{ text: "unused" }]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake" };
  const run = await runTern({ cwd: project.root, args: ["-p", "/mcp"], env });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "No MCP servers running");
  assertStringIncludes(
    run.stdout,
    "ignored .mcp.json (1 server): this project's settings are not trusted yet",
  );
  assertEquals(model.requests.length, 0);
});
