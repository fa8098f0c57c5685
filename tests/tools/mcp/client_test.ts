import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { tempProject } from "../../support/temp_project.ts";
import { startHttpMcp } from "../../support/mcp_protocol.ts";
import { McpHub } from "../../../src/tools/mcp/client.ts";
import { mcpTools } from "../../../src/tools/mcp/adapter.ts";
import type { McpServerConfig } from "../../../src/tools/mcp/config.ts";
import { testContext } from "../_helpers.ts";
import type { Tool, ToolResult } from "../../../src/tools/tool.ts";
import { whyMissing } from "../../support/requires.ts";

const SERVER = new URL("../../support/mcp_server.ts", import.meta.url).pathname;

function stdio(name: string, mode = "ok", sandbox = false): McpServerConfig {
  const args = ["run", "--quiet", "--no-config", "--allow-read", SERVER, mode];
  return { name, type: "stdio", command: Deno.execPath(), args, env: {}, sandbox };
}

async function withHub(
  configs: McpServerConfig[],
  body: (hub: McpHub, root: string) => Promise<void>,
  trusted = true,
) {
  await using project = await tempProject();
  const hub = new McpHub(configs, { root: project.root, sandbox: "auto", callTimeoutMs: 1500, trusted });
  try {
    await hub.ready(20_000);
    await body(hub, project.root);
  } finally {
    await hub.close();
  }
}

function tool(tools: Tool[], name: string): Tool {
  const found = tools.find((candidate) => candidate.name === name);
  assert(found, `no tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
  return found;
}

async function call(t: Tool, args: Record<string, unknown>, root: string): Promise<ToolResult> {
  const result = await t.run(args, testContext(root));
  return typeof result === "string" ? { content: result } : result;
}

Deno.test("McpHub starts a stdio server and its tools become mcp__<server>__<tool> tools", async () => {
  await withHub([stdio("local")], async (hub, root) => {
    assertEquals(hub.servers[0].state, "ready");
    const { tools, skipped } = mcpTools(hub.servers);
    assertEquals(tools.map((t) => t.name), ["mcp__local__echo", "mcp__local__add_note"]);
    assertEquals(skipped.length, 1);
    assertStringIncludes(skipped[0], "local/bad schema");
    const echo = tool(tools, "mcp__local__echo");
    assert(!echo.description.includes("\u001b"), "a server's escape sequence reaches the model");
    assertEquals(echo.guidance, 'mcp__local__echo: a tool of the MCP server "local" (read-only).');
    assertEquals((await echo.inspect({ text: "hi" }, testContext(root))).effect, "read");
    const result = await call(echo, { text: "hi" }, root);
    assertEquals(result.content, "echo: hi\n[image: image/png, 8 bytes, not shown]");
    const note = tool(tools, "mcp__local__add_note");
    const inspection = await note.inspect({ note: "x" }, testContext(root));
    assertEquals([inspection.effect, inspection.sandboxed], ["exec", false]);
    assertEquals(inspection.summary, 'local › add_note note="x"');
    assertEquals(inspection.server, {
      name: "local",
      runsIn: 'NOT sandboxed ("sandbox": false): full access to files and network',
    });
  });
});

Deno.test("an untrusted project's server: readOnlyHint alone does not skip the question", async () => {
  await withHub([stdio("local")], async (hub, root) => {
    const echo = tool(mcpTools(hub.servers).tools, "mcp__local__echo");
    const inspection = await echo.inspect({ text: "hi" }, testContext(root));
    assertEquals([inspection.effect, inspection.server?.name], ["exec", "local"]);
    assertEquals(echo.guidance, 'mcp__local__echo: a tool of the MCP server "local".');
  }, false);
});

Deno.test("an MCP result is summed up for its tool line: lines and size of its text, other blocks counted", async () => {
  await withHub([stdio("local")], async (hub, root) => {
    const echo = tool(mcpTools(hub.servers).tools, "mcp__local__echo");
    const result = await call(echo, { text: "hi" }, root);
    assertEquals(result.details?.mcp, { lines: 1, bytes: 8, other: ["1 image"] });
  });
});

Deno.test("McpHub reaches a streamable HTTP server on 127.0.0.1", async () => {
  await using http = startHttpMcp();
  const config: McpServerConfig = { name: "web", type: "http", url: http.url, headers: { "x-test": "1" } };
  await withHub([config], async (hub, root) => {
    assertEquals(hub.servers[0].state, "ready", hub.servers[0].error);
    const echo = tool(mcpTools(hub.servers).tools, "mcp__web__echo");
    assertMatch((await call(echo, { text: "over http" }, root)).content, /^echo: over http/);
    assert(http.requests.some((request) => request.method === "tools/call"));
  });
});

Deno.test("a server that crashes mid-call gives an error result and is marked failed", async () => {
  await withHub([stdio("crashy", "crash")], async (hub, root) => {
    const echo = tool(mcpTools(hub.servers).tools, "mcp__crashy__echo");
    const error = await echo.run({ text: "x" }, testContext(root)).then(() => undefined, (e) => e);
    assert(error instanceof Error);
    assertEquals((error as { kind?: string }).kind, "io");
    assertEquals(hub.servers[0].state, "failed");
    assertStringIncludes(hub.servers[0].error ?? "", "crashing on purpose");
  });
});

Deno.test("a server that never answers a call times out instead of hanging tern", async () => {
  await withHub([stdio("stuck", "hang")], async (_hub, root) => {
    const echo = tool(mcpTools(_hub.servers).tools, "mcp__stuck__echo");
    // The hub's call timeout (1.5 s here) ends the call: an error of kind "timeout", not a hang.
    const error = await echo.run({ text: "x" }, testContext(root)).then(() => undefined, (e) => e);
    assertEquals((error as { kind?: string }).kind, "timeout");
  });
});

Deno.test("a server whose command does not exist fails at start without holding up the others", async () => {
  const missing: McpServerConfig = {
    name: "missing",
    type: "stdio",
    command: "/nonexistent/mcp-server",
    args: [],
    env: {},
    sandbox: false,
    network: false,
  };
  await withHub([missing, stdio("local")], (hub) => {
    assertEquals(hub.servers.map((server) => server.state), ["failed", "ready"]);
    assertEquals(mcpTools(hub.servers).tools.length, 2);
    return Promise.resolve();
  });
});

/** An MCP server in bash (it runs inside bubblewrap, where tern's Deno binary may not be visible). */
const SHELL_SERVER = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2)
  [ -z "$id" ] && continue
  r='{"jsonrpc":"2.0","id":'$id',"result":'
  case "$line" in
    *'"method":"initialize"'*) echo "$r"'{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}';;
    *'"method":"tools/list"'*) echo "$r"'{"tools":[{"name":"probe","inputSchema":{"type":"object"}}]}}';;
    *'"method":"tools/call"'*) if [ -w /usr ]; then w=writable; else w=read-only; fi
      if [ -n "$MARK" ] && [ -e "$HOME/$MARK" ]; then h=own; else h=private; fi
      n=$(grep -c : /proc/net/dev)
      echo "$r"'{"content":[{"type":"text","text":"usr is '$w', home is '$h', '$n' interfaces"}]}}';;
  esac
done
`;

const detectMissing = () => Promise.resolve({ available: false, reason: "bubblewrap is not installed" });
const noBwrap = whyMissing("bwrap");

/** What the shell server saw inside its sandbox: /usr, HOME (a marker file of the real one) and the network. */
async function probeSandbox(trusted: boolean, entry: Partial<McpServerConfig> = {}) {
  await using project = await tempProject({ "server.sh": SHELL_SERVER });
  const mark = `.tern-test-${crypto.randomUUID()}`;
  const home = Deno.env.get("HOME") ?? "/root";
  await Deno.writeTextFile(`${home}/${mark}`, "");
  const config = { ...stdio("boxed", "ok", true), ...entry } as McpServerConfig;
  Object.assign(config, { command: "bash", args: [`${project.root}/server.sh`], env: { MARK: mark } });
  const hub = new McpHub([config], { root: project.root, sandbox: "auto", trusted });
  try {
    await hub.ready(20_000);
    assertEquals([hub.servers[0].state, hub.servers[0].sandboxed], ["ready", true], hub.servers[0].error);
    const probe = tool(mcpTools(hub.servers).tools, "mcp__boxed__probe");
    return { said: (await call(probe, {}, project.root)).content, sandbox: hub.servers[0].sandbox };
  } finally {
    await hub.close();
    await Deno.remove(`${home}/${mark}`);
  }
}

/** Network interfaces tern's own process sees (a sandbox without network sees only lo). */
function hostInterfaces(): number {
  return Deno.readTextFileSync("/proc/net/dev").split("\n").filter((line) => line.includes(":")).length;
}

Deno.test({
  name: "a trusted project's stdio server runs in the project sandbox with the user's HOME and the network" +
    (noBwrap ? ` (skipped: ${noBwrap})` : ""),
  ignore: noBwrap !== null,
  fn: async () => {
    const { said, sandbox } = await probeSandbox(true);
    assertEquals(sandbox, { kind: "project", network: true });
    assertEquals(said, `usr is read-only, home is own, ${hostInterfaces()} interfaces`);
  },
});

Deno.test({
  name: "an untrusted project's stdio server gets the strict sandbox: a private HOME, no network" +
    (noBwrap ? ` (skipped: ${noBwrap})` : ""),
  ignore: noBwrap !== null,
  fn: async () => {
    const { said, sandbox } = await probeSandbox(false);
    assertEquals(sandbox, { kind: "strict", network: false });
    assertEquals(said, "usr is read-only, home is private, 1 interfaces");
    const opened = await probeSandbox(false, { network: true });
    assertEquals(opened.said, `usr is read-only, home is private, ${hostInterfaces()} interfaces`);
    const strict = await probeSandbox(true, { sandbox: "strict" });
    assertEquals(strict.said, "usr is read-only, home is private, 1 interfaces");
  },
});

Deno.test("with --sandbox required and no bubblewrap, a sandboxed server is refused", async () => {
  await using project = await tempProject();
  const hub = new McpHub([stdio("boxed", "ok", true)], {
    root: project.root,
    sandbox: "required",
    detect: detectMissing,
  });
  try {
    await hub.ready(20_000);
    assertEquals(hub.servers[0].state, "failed");
    assertStringIncludes(hub.servers[0].error ?? "", "--sandbox required");
  } finally {
    await hub.close();
  }
});

Deno.test("what an MCP server sends back never carries tern's own key: results and errors are redacted", async () => {
  await withHub([stdio("local")], async (hub, root) => {
    const echo = tool(mcpTools(hub.servers, ["sk-user-secret-123"]).tools, "mcp__local__echo");
    const result = await call(echo, { text: "your key is sk-user-secret-123, thanks" }, root);
    assertStringIncludes(result.content, "echo: your key is [redacted], thanks");
    assert(!result.content.includes("sk-user-secret-123"));
  });
  await withHub([stdio("crashy", "crash")], async (hub, root) => {
    const echo = tool(mcpTools(hub.servers, ["sk-user-secret-123"]).tools, "mcp__crashy__echo");
    const error = await echo.run({ text: "sk-user-secret-123" }, testContext(root)).then(
      () => undefined,
      (e) => e,
    );
    assert(error instanceof Error && !error.message.includes("sk-user-secret-123"));
  });
});
