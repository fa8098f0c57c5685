/**
 * `tern acp` opens projects through the core's one door: a root is opened once for all its sessions (its MCP
 * servers started once), slash commands are offered and run, `@path` mentions attach files, the editor's own
 * MCP servers join, a replaced session is closed, and a line over the size cap gets a JSON-RPC error while
 * the agent lives on.
 */
import * as acp from "@agentclientprotocol/sdk";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { startAcp } from "../../support/acp.ts";
import { spawnTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

const SERVER = new URL("../../support/mcp_server.ts", import.meta.url).pathname;

function env(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model", NO_COLOR: "1" };
}

function serverEntry(mode: string) {
  const args = ["run", "--quiet", "--no-config", "--allow-read", "--allow-write", SERVER, mode];
  return { command: Deno.execPath(), args, sandbox: false };
}

function toolNames(request: Record<string, unknown>): string[] {
  return (request.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
}

function userText(request: Record<string, unknown>): string {
  const messages = request.messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "user").map((message) => message.content).join("\n");
}

async function initialize(agent: acp.ClientContext): Promise<void> {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });
}

Deno.test("tern acp: one Project per root (servers started once), commands offered and run, @file attached", async () => {
  await using project = await tempProject({
    "hello.txt": "Hello World\n",
    ".tern/commands/greet.md":
      "---\ndescription: Greets someone\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS.\n",
  });
  const log = `${project.outside}/starts.log`;
  await Deno.writeTextFile(
    `${project.root}/.mcp.json`,
    JSON.stringify({ mcpServers: { local: serverEntry(`log=${log}`) } }),
  );
  await using model = startFakeModel([{ text: "Hi Bob." }, { text: "It says Hello World." }]);
  const updates: acp.SessionUpdate[] = [];
  await using tern = await startAcp(project.root, ["--sandbox", "off", "--trust-project"], env(model.url));
  const client = acp.client({ name: "tests" })
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params.update));
  await client.connectWith(tern.stream, async (agent) => {
    await initialize(agent);
    const first = await agent.request(acp.methods.agent.session.new, { cwd: project.root, mcpServers: [] });
    const second = await agent.request(acp.methods.agent.session.new, { cwd: project.root, mcpServers: [] });
    assert(first.sessionId !== second.sessionId);
    const greet = await agent.request(acp.methods.agent.session.prompt, {
      sessionId: first.sessionId,
      prompt: [{ type: "text", text: "/greet Bob" }],
    });
    assertEquals(greet.stopReason, "end_turn");
    const mention = await agent.request(acp.methods.agent.session.prompt, {
      sessionId: second.sessionId,
      prompt: [{ type: "text", text: "what does @hello.txt say?" }],
    });
    assertEquals(mention.stopReason, "end_turn");
  });
  const offered = updates.filter((update) => update.sessionUpdate === "available_commands_update");
  assertEquals(offered.length, 2, "each session is told its commands");
  const names = offered[0].sessionUpdate === "available_commands_update"
    ? offered[0].availableCommands.map((command) => command.name)
    : [];
  for (const name of ["compact", "cost", "greet", "help"]) assert(names.includes(name), names.join(","));
  assertStringIncludes(userText(model.requests[0]), "Say hello to Bob.");
  assert(
    !userText(model.requests[0]).includes("/greet"),
    "the command ran; its name did not reach the model",
  );
  assertStringIncludes(userText(model.requests[1]), '<attached_file path="hello.txt">\nHello World\n');
  // Both sessions' first requests carry the server's tools; the server was started once for the root.
  for (const request of model.requests) assert(toolNames(request).includes("mcp__local__echo"));
  assertEquals(await Deno.readTextFile(log), "started\n");
});

Deno.test("tern acp: an editor's MCP server joins its session; an HTTP one is refused with a reason", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  await using model = startFakeModel([{ text: "ok" }]);
  await using tern = await startAcp(project.root, ["--sandbox", "off"], env(model.url));
  const client = acp.client({ name: "tests" });
  await client.connectWith(tern.stream, async (agent) => {
    await initialize(agent);
    const entry = serverEntry("ok");
    const refused = await agent.request(acp.methods.agent.session.new, {
      cwd: project.root,
      mcpServers: [{ type: "http", name: "web", url: "http://127.0.0.1:9/mcp", headers: [] }],
    }).then(() => "accepted", (error) => String(error.message ?? error));
    assertStringIncludes(refused, 'MCP server "web": tern acp starts stdio servers only');
    const { sessionId } = await agent.request(acp.methods.agent.session.new, {
      cwd: project.root,
      mcpServers: [{ name: "editor", command: entry.command, args: entry.args, env: [] }],
    });
    const done = await agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    assertEquals(done.stopReason, "end_turn");
  });
  assert(toolNames(model.requests[0]).includes("mcp__editor__echo"), toolNames(model.requests[0]).join(","));
});

Deno.test("tern acp: a 20 MB line gets a JSON-RPC error with its id, and the agent answers the next request", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([]);
  const child = await spawnTern({ cwd: project.root, args: ["acp"], env: env(model.url), openStdin: true });
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const huge = `{"jsonrpc":"2.0","id":41,"method":"session/prompt","params":{"text":"${
    "x".repeat(20 << 20)
  }"}}\n`;
  await writer.write(encoder.encode(huge));
  const init = { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} };
  await writer.write(
    encoder.encode(JSON.stringify({ jsonrpc: "2.0", id: 42, method: "initialize", params: init }) + "\n"),
  );
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (text.split("\n").length < 3) {
    const { value, done } = await lines.read();
    if (done) break;
    text += value;
  }
  const [error, answer] = text.trim().split("\n").map((line) => JSON.parse(line));
  assertEquals([error.id, error.error.code], [41, -32600]);
  assertStringIncludes(error.error.message, "over 16 MB");
  assertEquals([answer.id, answer.result.protocolVersion], [42, acp.PROTOCOL_VERSION]);
  await writer.close();
  lines.releaseLock();
  const stderr = await new Response(child.stderr).text();
  assertEquals((await child.status).code, 0);
  assertStringIncludes(stderr, "a message over 16 MB was dropped");
});
