/**
 * One door, one set of walls and features: the same scripted task through the REPL (tmux), `-p`, stream-json,
 * `tern acp` (the SDK's client) and a sub-agent. Each door must attach `@file` and `@image`, run a custom
 * command, carry the trusted MCP server's tools in its first request, refuse a write to tern's own state, and
 * write through the file wall — proven by running every door again with perl hidden, where only the wall
 * (which writes through perl alone) refuses the write, in its own words.
 */
import * as acp from "@agentclientprotocol/sdk";
import { assert, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { ternRunArgs } from "./support/cli.ts";
import { bundleOnce } from "../scripts/bundle.ts";
import { tempProject } from "./support/temp_project.ts";
import { startTmux } from "./support/tmux.ts";
import { whyMissing } from "./support/requires.ts";
import { canHidePerl, spawnIn, withPerlHidden } from "./support/hide_perl.ts";

const SERVER = new URL("./support/mcp_server.ts", import.meta.url).pathname;
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PROMPT = "/greet Bob";
const WALL_REFUSAL = "file writes are refused: tern's file helper (perl) cannot run";
type Door = "repl" | "print" | "stream-json" | "acp" | "sub-agent";
const DOORS: Door[] = ["repl", "print", "stream-json", "acp", "sub-agent"];

async function doorProject() {
  const mcp = {
    mcpServers: {
      local: {
        command: Deno.execPath(),
        args: ["run", "--quiet", "--no-config", "--allow-read", SERVER],
        sandbox: false,
      },
    },
  };
  const project = await tempProject({
    "hello.txt": "Hello World\n",
    ".mcp.json": JSON.stringify(mcp),
    ".tern/commands/greet.md":
      "---\ndescription: Greets\n---\nSay hello to $ARGUMENTS; see @hello.txt and @shot.png\n",
    ".tern/agents/writer.md":
      "---\nname: writer\ndescription: Writes files\ntools: write_file, read_file\n---\nWrite.\n",
  });
  await Deno.writeFile(`${project.root}/shot.png`, Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)));
  return project;
}

type Body = Record<string, unknown>;
const isChild = (body: Body) =>
  JSON.stringify((body.messages as unknown[])[0]).includes("You are a sub-agent");
const answered = (body: Body) =>
  (body.messages as { role: string }[]).some((message) => message.role === "tool");

/** The writes every door's task makes: one to the project, one to tern's own state (refused). */
const WRITES: ScriptedTurn = {
  toolCalls: [
    { name: "write_file", arguments: JSON.stringify({ path: "out.txt", content: "written\n" }) },
    { name: "write_file", arguments: JSON.stringify({ path: ".tern/local/trust.json", content: "{}" }) },
  ],
};

/** The model: the writes, then an answer; the sub-agent door's main session hands them to a writer. */
function script(door: Door) {
  return (body: Body): ScriptedTurn => {
    if (door === "sub-agent" && !isChild(body)) {
      if (answered(body)) return { text: "All done." };
      const task = { description: "write", prompt: "write out.txt", agent: "writer" };
      return { toolCalls: [{ name: "task", arguments: JSON.stringify(task) }] };
    }
    return answered(body) ? { text: "All done." } : WRITES;
  };
}

function env(url: string): Record<string, string> {
  return {
    TERN_BASE_URL: url,
    TERN_API_KEY: "k",
    TERN_MODEL: "fake-model",
    TERN_IMAGES: "on",
    NO_COLOR: "1",
  };
}

/** How a door's tern is started: perl hidden or not, from main.ts or from the installed command's bundle. */
interface Start {
  hidden: boolean;
  bundle?: string;
}

/** The command that runs tern (perl hidden when asked), as argv. */
async function ternArgv({ hidden, bundle }: Start, args: string[]): Promise<string[]> {
  const tern = [Deno.execPath(), ...await ternRunArgs(bundle), ...args];
  return hidden ? withPerlHidden(tern) : tern;
}

const FLAGS = ["--trust-project", "--approve", "all", "--sandbox", "off"];

async function runProcess(argv: string[], cwd: string, modelEnv: Record<string, string>, input?: string) {
  const child = spawnIn(argv, cwd, modelEnv);
  const writer = child.stdin.getWriter();
  if (input !== undefined) await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (Deno.env.get("DOORS_DEBUG")) console.error(stderr);
  return stderr;
}

async function runDoor(
  door: Door,
  start: Start,
  cwd: string,
  modelEnv: Record<string, string>,
): Promise<void> {
  if (door === "print" || door === "sub-agent") {
    const prompt = door === "print" ? PROMPT : "delegate the writes";
    await runProcess(await ternArgv(start, ["-p", prompt, ...FLAGS]), cwd, modelEnv);
  } else if (door === "stream-json") {
    const line = JSON.stringify({ type: "user", text: PROMPT }) + "\n";
    await runProcess(
      await ternArgv(start, ["--input-format", "stream-json", "--output", "stream-json", ...FLAGS]),
      cwd,
      modelEnv,
      line,
    );
  } else if (door === "acp") await runAcp(await ternArgv(start, ["acp", ...FLAGS]), cwd, modelEnv);
  else await runRepl(await ternArgv(start, FLAGS), cwd, modelEnv);
}

async function runAcp(argv: string[], cwd: string, modelEnv: Record<string, string>): Promise<void> {
  const child = spawnIn(argv, cwd, modelEnv);
  await acp.client({ name: "doors" }).connectWith(
    acp.ndJsonStream(child.stdin, child.stdout),
    async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: PROMPT }],
      });
    },
  );
  child.kill();
  await child.status;
}

async function runRepl(argv: string[], cwd: string, modelEnv: Record<string, string>): Promise<void> {
  const vars = Object.entries({ ...modelEnv }).map(([name, value]) => `${name}=${value}`).join(
    " ",
  );
  const quoted = argv.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  await using tmux = await startTmux(`cd '${cwd}' && env ${vars} ${quoted}`);
  await tmux.waitFor("›");
  await tmux.send(PROMPT, "Enter");
  await tmux.waitFor("All done.");
  await tmux.send("/exit", "Enter");
  await tmux.waitForExit();
}

function userText(body: Body): string {
  return JSON.stringify((body.messages as { role: string }[]).filter((message) => message.role === "user"));
}

function toolResults(bodies: Body[]): string {
  return bodies.map((body) =>
    JSON.stringify((body.messages as { role: string }[]).filter((message) => message.role === "tool"))
  ).join("\n");
}

async function checkDoor(door: Door, hidden: boolean, bundle?: string): Promise<void> {
  await using project = await doorProject();
  await using model = startFakeModel(script(door));
  await runDoor(door, { hidden, bundle }, project.root, env(model.url));
  const where = `${door}${hidden ? " (perl hidden)" : ""}${bundle ? " (installed bundle)" : ""}`;
  const first = model.requests[0];
  assert(first, `${where}: the model was asked`);
  const tools = (first.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
  assert(tools.includes("mcp__local__echo"), `${where}: the MCP tools are in the first request: ${tools}`);
  if (door !== "sub-agent") {
    const text = userText(first);
    assertStringIncludes(text, "Say hello to Bob", `${where}: the custom command ran`);
    assertStringIncludes(text, 'attached_file path=\\"hello.txt\\"', `${where}: @hello.txt attached`);
    assertStringIncludes(
      JSON.stringify(first),
      `data:image/png;base64,${PNG}`,
      `${where}: @shot.png attached`,
    );
  }
  const results = toolResults(model.requests);
  assertStringIncludes(
    results,
    "is tern's own state: no tool may write it",
    `${where}: the state write refused`,
  );
  const written = await Deno.readTextFile(`${project.root}/out.txt`).catch(() => null);
  if (hidden) {
    assertStringIncludes(results, WALL_REFUSAL, `${where}: the wall refused the write`);
    assert(written === null, `${where}: nothing was written`);
  } else assert(written === "written\n", `${where}: out.txt written (${written})`);
}

const missing = ["tmux", "python3"].map((program) => whyMissing(program as "tmux")).find((why) =>
  why !== null
);
const canHide = canHidePerl();

for (const door of DOORS) {
  Deno.test({
    name:
      `door matrix: ${door} attaches @file/@image, runs a custom command, has the MCP tools, writes through the wall`,
    ignore: door === "repl" && missing !== undefined,
    fn: () => checkDoor(door, false),
  });
  Deno.test({
    name: `door matrix: ${door} with perl hidden refuses the write in the wall's words`,
    ignore: !canHide || (door === "repl" && missing !== undefined),
    fn: () => checkDoor(door, true),
  });
  Deno.test({
    name: `door matrix: ${door} through the installed command's bundle behaves the same`,
    ignore: door === "repl" && missing !== undefined,
    fn: async () => checkDoor(door, false, await bundleOnce()),
  });
}
