/** A 20 MB MCP tool result is cut for the model, and the server lives on for the next call. */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { runTern } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";

const SERVER = new URL("../support/mcp_server.ts", import.meta.url).pathname;

Deno.test("tern -p: a 20 MB result of an MCP tool is cut, the task goes on, and the server answers the next call", async () => {
  const mcp = {
    mcpServers: {
      local: {
        command: Deno.execPath(),
        args: ["run", "--quiet", "--no-config", "--allow-read", SERVER],
        sandbox: false,
      },
    },
  };
  await using project = await tempProject({ ".mcp.json": JSON.stringify(mcp) });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "mcp__local__echo", arguments: '{"text":"huge-result"}' }] },
    { toolCalls: [{ name: "mcp__local__echo", arguments: '{"text":"still there?"}' }] },
    { text: "Done." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "use the local server", "--trust-project-mcp", "--approve", "all"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals([run.code, run.stdout], [0, "Done.\n"], run.stderr.slice(0, 3000));
  type Sent = { role: string; content: string };
  const result = (i: number) => (model.requests[i].messages as Sent[]).at(-1)!.content;
  assertStringIncludes(result(1), "huge: xxxx");
  assert(result(1).length < 200_000, `the model got ${result(1).length} characters`);
  assertStringIncludes(result(2), "echo: still there?");
  for (const body of model.requests) assert(JSON.stringify(body).length < 300_000);
});
