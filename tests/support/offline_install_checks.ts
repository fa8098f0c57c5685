/**
 * The checks tests/main_offline_install_test.ts runs inside a network namespace (only loopback), against
 * the `tern` command `deno task install` left and the Deno cache it filled (OFFLINE_TEST_TERN,
 * OFFLINE_TEST_DENO_DIR): every feature that loads an npm package, each run through the installed command.
 * Not a `_test.ts` file: run on its own it would test the machine's network, not tern.
 */
import * as acp from "@agentclientprotocol/sdk";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./assert.ts";
import { startFakeModel } from "./fake_model_server.ts";
import { refusingServer } from "./refusing_server.ts";
import { type TempProject, tempProject } from "./temp_project.ts";
import { startTmux, tmux } from "./tmux.ts";

const TERN = Deno.env.get("OFFLINE_TEST_TERN");
const DENO_DIR = Deno.env.get("OFFLINE_TEST_DENO_DIR");
if (!TERN || !DENO_DIR) {
  throw new Error("run by tests/main_offline_install_test.ts, inside a network namespace");
}

const SERVER_FILES = ["mcp_server.ts", "mcp_protocol.ts"];

/** A project holding the test MCP server (in .mcp.json, unsandboxed: no bwrap needed) and files to find. */
async function offlineProject(): Promise<TempProject> {
  const project = await tempProject({
    "notes.txt": "one\ntwo\n",
    "src/app.ts": "export const needle = 1;\n",
    ".gitignore": "ignored/\n",
    "ignored/skip.ts": "export const needle = 2;\n",
  });
  for (const file of SERVER_FILES) {
    await Deno.copyFile(new URL(file, import.meta.url), `${project.root}/${file}`);
  }
  const server = {
    command: Deno.execPath(),
    args: ["run", "-q", "--no-config", "--allow-read", `${project.root}/mcp_server.ts`],
    sandbox: false,
  };
  await Deno.writeTextFile(`${project.root}/.mcp.json`, JSON.stringify({ mcpServers: { local: server } }));
  return project;
}

/**
 * The environment of the installed tern: its Deno cache, a HOME of its own, every proxy pointed at
 * `proxy` (Deno sends its npm requests there, where they are counted) except for 127.0.0.1.
 */
function ternEnv(project: TempProject, proxy: string, model: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: `${project.outside}/home`,
    DENO_DIR: DENO_DIR!,
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    NO_PROXY: "127.0.0.1",
    TERN_BASE_URL: model,
    TERN_API_KEY: "k",
    TERN_MODEL: "fake-model",
  };
}

/** A local web page with an article and a table (readability, linkedom, turndown and its gfm plugin). */
function startPage() {
  const html = "<html><head><title>Offline page</title></head><body><nav>menu</nav><article><h1>Kept</h1>" +
    "<p>The article text, long enough for readability to choose it as the page's main content.</p>" +
    "<table><tr><th>name</th><th>value</th></tr><tr><td>alpha</td><td>1</td></tr></table></article></body></html>";
  const headers = { "content-type": "text/html; charset=utf-8" };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(html, { headers }),
  );
  return { url: `http://127.0.0.1:${server.addr.port}/page`, [Symbol.asyncDispose]: () => server.shutdown() };
}

const call = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

/** The content of each tool result the model was sent, in order. */
function toolResults(requests: Record<string, unknown>[]): string[] {
  return requests.flatMap((request) => {
    const last = (request.messages as { role: string; content: string }[]).at(-1)!;
    return last.role === "tool" ? [last.content] : [];
  });
}

Deno.test("offline: web_fetch, glob_files, grep_code, edit_file and an MCP tool, headless", async () => {
  await using project = await offlineProject();
  await using page = startPage();
  await using proxy = refusingServer();
  await using model = startFakeModel([
    call("web_fetch", { url: page.url }),
    call("glob_files", { pattern: "**/*.ts" }),
    call("grep_code", { pattern: "needle" }),
    call("read_file", { path: "notes.txt" }),
    call("edit_file", { path: "notes.txt", old_text: "two", new_text: "2" }),
    call("mcp__local__echo", { text: "offline echo" }),
    { text: "all done" },
  ]);
  const flags = ["--no-session", "--approve", "all", "--allow-local-fetch", "--trust-project"];
  const output = await new Deno.Command(TERN!, {
    args: ["-p", "use every tool", ...flags],
    cwd: project.root,
    clearEnv: true,
    env: { ...ternEnv(project, proxy.url, model.url), NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assertEquals([output.code, new TextDecoder().decode(output.stdout)], [0, "all done\n"], stderr);
  assert(!stderr.includes("cannot load the npm package"), stderr);
  assertEquals(proxy.attempts, [], "tern's Deno reached out for a package");
  const [fetched, globbed, grepped, _read, edited, echoed] = toolResults(model.requests);
  assertStringIncludes(fetched, "# Kept");
  assertMatch(fetched, /\| alpha \| 1 +\|/); // the gfm plugin's table
  assert(!fetched.includes("menu"), fetched);
  assertStringIncludes(globbed, "src/app.ts");
  assert(!globbed.includes("ignored/"), globbed); // .gitignore honoured
  assertStringIncludes(grepped, "src/app.ts");
  assert(!grepped.includes("ignored/"), grepped);
  assertStringIncludes(edited, "notes.txt");
  assertEquals(await Deno.readTextFile(`${project.root}/notes.txt`), "one\n2\n");
  assertStringIncludes(echoed, "offline echo");
});

Deno.test("offline: the REPL asks the trust question, shows an edit's diff and colours a code block", async () => {
  await using project = await offlineProject();
  await using proxy = refusingServer();
  await using model = startFakeModel([
    call("read_file", { path: "notes.txt" }),
    call("edit_file", { path: "notes.txt", old_text: "two", new_text: "2" }),
    { text: "# Report\n\n```ts\nconst answer = 42;\n```\n\nThat is all." },
  ]);
  const env = Object.entries(ternEnv(project, proxy.url, model.url)).map(([key, value]) => `${key}=${value}`);
  await using tern = await startTmux(`cd ${project.root} && env ${env.join(" ")} ${TERN} --approve edits`);
  await tern.waitFor("Trust this project (remembered for this directory)?"); // @inquirer/prompts
  await tern.send("y", "Enter");
  await tern.waitFor("›");
  await tern.send("report", "Enter");
  const screen = await tern.waitFor("That is all.");
  assertStringIncludes(screen, "-two\n+2\n"); // diff
  const colours = (await tmux("capture-pane", "-p", "-e", "-t", tern.name)).text;
  // deno-lint-ignore no-control-regex -- a bold, underlined heading (marked), however tmux encodes it
  assertMatch(colours, /\x1b\[[0-9;]*1;4m(\x1b\[[0-9;]*m)*Report\n/);
  assert(!screen.includes("# Report") && !screen.includes("```"), screen);
  assertStringIncludes(colours, "\x1b[35mconst"); // highlight.js
  assert(!screen.includes("cannot load the npm package"), screen);
  assertEquals(proxy.attempts, [], "tern's Deno reached out for a package");
  await tern.send("C-d");
  assert(await tern.waitForExit(), "tern exits on Ctrl-D");
});

Deno.test("offline: tern acp answers an ACP client's prompt", async () => {
  await using project = await offlineProject();
  await using proxy = refusingServer();
  await using model = startFakeModel([call("glob_files", { pattern: "*.txt" }), { text: "found notes.txt" }]);
  const child = new Deno.Command(TERN!, {
    args: ["acp"],
    cwd: project.root,
    clearEnv: true,
    env: { ...ternEnv(project, proxy.url, model.url), NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let said = "";
  const client = acp.client({ name: "offline-test" }).onNotification(
    acp.methods.client.session.update,
    ({ params }) => {
      const update = params.update;
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
        said += update.content.text;
      }
    },
  );
  await client.connectWith(acp.ndJsonStream(child.stdin, child.stdout), async (agent) => {
    await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const { sessionId } = await agent.request(acp.methods.agent.session.new, {
      cwd: project.root,
      mcpServers: [],
    });
    const prompt: acp.ContentBlock[] = [{ type: "text", text: "find the notes" }];
    const done = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt });
    assertEquals(done.stopReason, "end_turn");
  });
  child.kill();
  await child.status;
  const log = await stderr;
  assertEquals(said, "found notes.txt", log);
  assertStringIncludes(toolResults(model.requests)[0], "notes.txt");
  assert(!log.includes("cannot load the npm package"), log);
  assertEquals(proxy.attempts, [], "tern's Deno reached out for a package");
});
