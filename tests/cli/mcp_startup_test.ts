import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "../support/fake_model_server.ts";
import { runTern } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";

const SERVER = new URL("../support/mcp_server.ts", import.meta.url).pathname;

/** A project whose .mcp.json starts the test server (outside the sandbox: tern's Deno lives in a private /tmp). */
function mcpProject() {
  const mcp = {
    mcpServers: {
      local: {
        command: Deno.execPath(),
        args: ["run", "--quiet", "--no-config", "--allow-read", SERVER],
        sandbox: false,
      },
    },
  };
  return tempProject({ ".mcp.json": JSON.stringify(mcp) });
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
    args: ["-p", "use the server", "--trust-project-mcp", "--approve", "all"],
    env: env(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "Done.\n");
  const tools = (model.requests[0].tools as { function: { name: string } }[]).map((t) => t.function.name);
  assert(tools.includes("mcp__local__echo") && tools.includes("mcp__local__add_note"), tools.join(","));
  const system = (model.requests[0].messages as Message[])[0].content;
  assertStringIncludes(system, '- mcp__local__echo: a tool of the MCP server "local" (read-only).');
  const [echo, note] = toolMessages(model);
  assertMatch(echo, /^<tool_result>/);
  assertStringIncludes(echo, "echo: hello from the model");
  assertStringIncludes(note, "noted");
});

Deno.test("tern -p keeps approval: a read-only MCP tool runs, a writing one is refused without a terminal", async () => {
  await using project = await mcpProject();
  await using model = await startFakeModel(SCRIPT);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "use the server", "--trust-project-mcp"],
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
