/**
 * tern acp on bad input: malformed JSON-RPC, unknown methods, a prompt before session/new, cwds that cannot
 * be a project, content it cannot take, unknown modes: each a JSON-RPC error with a clear message, stdout
 * only protocol messages, and the process still serving afterwards. Also "allow always", saved as in the REPL.
 */
import * as acp from "@agentclientprotocol/sdk";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { ternRunArgs } from "../../support/cli.ts";
import { startAcp } from "../../support/acp.ts";
import { TextLineStream } from "../../support/text_lines.ts";
import { tempProject } from "../../support/temp_project.ts";

const ENV = { TERN_BASE_URL: "http://127.0.0.1:9/v1", TERN_API_KEY: "k", TERN_MODEL: "m" };

/** Sends raw lines to `tern acp` in `cwd`, one at a time, each after the reply to the one before. */
async function exchange(cwd: string, lines: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...await ternRunArgs(), "acp"],
    cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/root", ...ENV },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream())
    .getReader();
  const replies: Record<string, unknown>[] = [];
  for (const line of lines) {
    await writer.write(new TextEncoder().encode(line + "\n"));
    const { value, done } = await reader.read();
    if (done) break;
    replies.push(JSON.parse(value)); // stdout holds protocol messages only: every line is JSON-RPC
  }
  await writer.close();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    replies.push(JSON.parse(next.value));
  }
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  return { replies, status, stderr };
}

const rpc = (id: number, method: string, params: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

Deno.test("tern acp answers every bad input with a JSON-RPC error and keeps serving", async () => {
  await using project = await tempProject({ "file.txt": "x\n" });
  const lines = [
    "{ this is not json",
    rpc(1, "initialize", { protocolVersion: 1, clientCapabilities: {} }),
    rpc(2, "session/teleport", {}),
    rpc(3, "session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] }),
    rpc(4, "session/new", { cwd: project.outside, mcpServers: [] }),
    rpc(5, "session/new", { cwd: `${project.root}/missing`, mcpServers: [] }),
    rpc(6, "session/new", { cwd: `${project.root}/file.txt`, mcpServers: [] }),
    rpc(7, "session/new", { cwd: "relative/dir", mcpServers: [] }),
    rpc(8, "session/new", { mcpServers: [] }),
    rpc(9, "session/load", { sessionId: "20200101-000000-dead", cwd: project.root, mcpServers: [] }),
    rpc(10, "session/new", { cwd: project.root, mcpServers: [] }),
  ];
  const { replies, status, stderr } = await exchange(project.root, lines);
  const byId = new Map(replies.map((reply) => [reply.id, reply]));
  const error = (id: number | null) => (byId.get(id) as { error?: { code: number; message: string } }).error!;
  assertEquals(error(null).code, -32700); // the line that was not JSON
  assertEquals(error(2).code, -32601);
  assertStringIncludes(error(2).message, "session/teleport");
  assertEquals(error(3).code, -32002);
  assertStringIncludes(error(3).message, 'no session "nope" on this connection: call session/new');
  assertStringIncludes(error(4).message, "is outside the directory tern acp was started in");
  assertStringIncludes(error(5).message, "does not exist");
  assertStringIncludes(error(6).message, "is not a directory");
  assertStringIncludes(error(7).message, "cwd must be an absolute path");
  assertEquals(error(8).code, -32602);
  assertEquals(error(9).code, -32002);
  assertStringIncludes(error(9).message, "20200101-000000-dead");
  // Still alive after all of it: the last request got a session.
  const created = byId.get(10) as { result?: { sessionId: string } };
  assert(typeof created.result?.sessionId === "string", JSON.stringify(replies));
  assertEquals(status.code, 0, stderr); // EOF on stdin ends it cleanly
  assertStringIncludes(stderr, "tern acp: serving");
});

Deno.test("tern acp refuses images, unknown modes and a second prompt as errors, and says what to send", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([{ text: "slow", delayMs: 1500 }]);
  const env = { ...ENV, TERN_BASE_URL: model.url };
  await using tern = await startAcp(project.root, [], env);
  await acp.client({ name: "t" }).connectWith(tern.stream, async (agent) => {
    await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.request(acp.methods.agent.session.new, {
      cwd: project.root,
      mcpServers: [],
    });
    const failure = (promise: Promise<unknown>) =>
      promise.then(() => undefined, (error: acp.RequestError) => `${error.code} ${error.message}`);
    const image = await failure(agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
    }));
    assertStringIncludes(image!, "-32602");
    assertStringIncludes(image!, "prompt block 1 is an image");
    const mode = await failure(
      agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" }),
    );
    assertStringIncludes(mode!, 'unknown mode "yolo": use one of ask, edits, all');
    const first = agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "one" }],
    });
    const second = await failure(agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "two" }],
    }));
    assertStringIncludes(second!, "a prompt is already running in this session");
    assertEquals((await first).stopReason, "end_turn");
  });
});

Deno.test("allow always in the editor saves the REPL's rule in .tern/local/settings.json, and the next session asks no more", async () => {
  await using project = await tempProject({ "a.txt": "one\n" });
  const edit = (id: string, from: string, to: string) => ({
    toolCalls: [{
      id,
      name: "edit_file",
      arguments: JSON.stringify({ path: "a.txt", old_text: from, new_text: to }),
    }],
  });
  const read = (id: string) => ({ toolCalls: [{ id, name: "read_file", arguments: '{"path":"a.txt"}' }] });
  await using model = startFakeModel([
    read("r1"),
    edit("e1", "one", "two"),
    { text: "ok" },
    read("r2"),
    edit("e2", "two", "three"),
    { text: "ok again" },
  ]);
  const asked: string[] = [];
  const app = acp.client({ name: "t" }).onRequest(
    acp.methods.client.session.requestPermission,
    ({ params }) => {
      asked.push(params.toolCall.toolCallId);
      const always = params.options.find((option) => option.kind === "allow_always")!;
      return { outcome: { outcome: "selected", optionId: always.optionId } };
    },
  );
  for (const text of ["first", "second"]) {
    await using tern = await startAcp(project.root, [], { ...ENV, TERN_BASE_URL: model.url });
    await app.connectWith(tern.stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await agent.request(acp.methods.agent.session.new, {
        cwd: project.root,
        mcpServers: [],
      });
      await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    });
  }
  assertEquals(asked, ["e1"]);
  assertEquals(await Deno.readTextFile(`${project.root}/a.txt`), "three\n");
  const settings = JSON.parse(await Deno.readTextFile(`${project.root}/.tern/local/settings.json`));
  assertEquals(settings.permissions.allow, ["edit_file"]);
});
