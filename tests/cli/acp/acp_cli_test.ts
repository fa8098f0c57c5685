/**
 * `tern acp` driven by an ACP client written with the same SDK, under the binary's permission flags, against
 * the fake model: a prompt that reads, edits (permission requested and granted) and runs a command, with the
 * updates in order; a cancel mid-turn; the session loaded again in a new process; the editor's buffers.
 */
import * as acp from "@agentclientprotocol/sdk";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { startAcp } from "../../support/acp.ts";
import { tempProject } from "../../support/temp_project.ts";

function env(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model", NO_COLOR: "1" };
}

const call = (id: string, name: string, args: unknown) => ({
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

/** What the client saw, in order: updates as "kind id status" and questions as "ask id". */
class Seen {
  readonly log: string[] = [];
  readonly updates: acp.SessionUpdate[] = [];
  readonly asked: acp.RequestPermissionRequest[] = [];
  #waiters: { test: (update: acp.SessionUpdate) => boolean; resolve: () => void }[] = [];

  update(update: acp.SessionUpdate): void {
    this.updates.push(update);
    if (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") {
      this.log.push(`${update.sessionUpdate} ${update.toolCallId} ${update.status ?? "-"}`);
    } else this.log.push(update.sessionUpdate);
    this.#waiters = this.#waiters.filter((waiter) => !(waiter.test(update) && (waiter.resolve(), true)));
  }

  /** Resolves once an update satisfying `test` arrives. */
  waitFor(test: (update: acp.SessionUpdate) => boolean): Promise<void> {
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  text(kind: "agent_message_chunk" | "user_message_chunk"): string {
    return this.updates.flatMap((update) =>
      update.sessionUpdate === kind && update.content.type === "text" ? [update.content.text] : []
    ).join("");
  }
}

function client(seen: Seen, choose = "allow_once") {
  return acp.client({ name: "tern-tests" })
    .onNotification(acp.methods.client.session.update, ({ params }) => seen.update(params.update))
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      seen.asked.push(params);
      seen.log.push(`ask ${params.toolCall.toolCallId}`);
      return { outcome: { outcome: "selected", optionId: choose } };
    });
}

const SCRIPT = [
  call("read1", "read_file", { path: "hello.txt" }),
  call("edit1", "edit_file", { path: "hello.txt", old_text: "World", new_text: "Agent" }),
  call("run1", "execute_command", { command: "cat hello.txt" }),
  { text: "Done." },
  call("sleep1", "execute_command", { command: "sleep 27.5" }),
  { text: "Loaded and answered." },
];

Deno.test("an ACP client drives tern acp: read, edit with permission, run, in order; cancel mid-turn; load again", async () => {
  await using project = await tempProject({ "hello.txt": "Hello World\n" });
  await using model = startFakeModel(SCRIPT);
  const seen = new Seen();
  let sessionId = "";
  {
    await using tern = await startAcp(project.root, ["--sandbox", "off"], env(model.url));
    await client(seen).connectWith(tern.stream, async (agent) => {
      const init = await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      assertEquals(init.protocolVersion, 1);
      assertEquals(init.agentCapabilities?.loadSession, true);
      assertEquals(init.authMethods, []);
      const created = await agent.request(acp.methods.agent.session.new, {
        cwd: project.root,
        mcpServers: [],
      });
      sessionId = created.sessionId;
      assertEquals(created.modes?.currentModeId, "ask");
      const prompt: acp.ContentBlock[] = [{ type: "text", text: "change the greeting and show it" }];
      const done = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt });
      assertEquals(done.stopReason, "end_turn");
      assertEquals(await Deno.readTextFile(`${project.root}/hello.txt`), "Hello Agent\n");
      // A running command's live output (content-only updates after in_progress) comes as often as it comes.
      const running = new Set<string>();
      const calls = seen.log.filter((line) => {
        const [kind, id, status] = line.split(" ");
        if (status === "in_progress") running.add(id);
        if (status === "-" && running.has(id)) return false;
        return kind.startsWith("tool_call") || kind === "ask";
      });
      assertEquals(calls, [
        "tool_call read1 pending",
        "tool_call_update read1 in_progress",
        "tool_call_update read1 completed",
        "tool_call edit1 pending",
        "tool_call_update edit1 -", // the diff, before the question
        "ask edit1",
        "tool_call_update edit1 in_progress",
        "tool_call_update edit1 completed",
        "tool_call run1 pending",
        "tool_call_update run1 -",
        "ask run1",
        "tool_call_update run1 in_progress",
        "tool_call_update run1 completed",
      ]);
      assertEquals(seen.log.at(-1), "agent_message_chunk");
      assertEquals(seen.text("agent_message_chunk"), "Done.");
      const read = seen.updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "read1");
      assert(read?.sessionUpdate === "tool_call");
      assertEquals([read.kind, read.title, read.locations], ["read", "read_file hello.txt", [{
        path: `${project.root}/hello.txt`,
      }]]);
      const edited = seen.updates.findLast((u) =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === "edit1" && u.status === "completed"
      );
      assert(edited?.sessionUpdate === "tool_call_update");
      assertEquals(edited.content?.[0], {
        type: "diff",
        path: `${project.root}/hello.txt`,
        oldText: "Hello World\n",
        newText: "Hello Agent\n",
      });
      const [editQuestion, runQuestion] = seen.asked;
      assertEquals(editQuestion.options.map((option) => option.kind), [
        "allow_once",
        "allow_always",
        "reject_once",
      ]);
      assertEquals(editQuestion.toolCall.kind, "edit");
      assertEquals(runQuestion.toolCall.kind, "execute");
      const ran = seen.updates.findLast((u) =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === "run1" && u.status === "completed"
      );
      assert(ran?.sessionUpdate === "tool_call_update");
      assertStringIncludes(JSON.stringify(ran.content), "Hello Agent");

      // Cancel mid-turn: the command runs (mode "all" asks nothing), the client cancels, the turn ends so.
      await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "all" });
      const started = seen.waitFor((u) =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === "sleep1" && u.status === "in_progress"
      );
      const cancelled = agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "wait a while" }],
      });
      await started;
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
      assertEquals((await cancelled).stopReason, "cancelled");
    });
  }
  assertEquals(model.requests.length, 5);

  // A new process loads the saved session: the history comes back, and the conversation goes on.
  const again = new Seen();
  await using tern = await startAcp(project.root, [], env(model.url));
  await client(again).connectWith(tern.stream, async (agent) => {
    await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    await agent.request(acp.methods.agent.session.load, { sessionId, cwd: project.root, mcpServers: [] });
    assertEquals(again.text("user_message_chunk"), "change the greeting and show itwait a while");
    assertStringIncludes(again.text("agent_message_chunk"), "Done.");
    assert(again.log.includes("tool_call edit1 completed"));
    const next = await agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "and now?" }],
    });
    assertEquals(next.stopReason, "end_turn");
  });
  const last = model.requests[5].messages as { role: string; content: string }[];
  assert(last.some((message) => message.role === "assistant" && message.content === "Done."));
});

Deno.test("with the client's fs methods, tern acp reads the editor's unsaved buffer and writes the edit into it", async () => {
  await using project = await tempProject({ "hello.txt": "Hello World\n" });
  await using model = startFakeModel([
    call("r", "read_file", { path: "hello.txt" }),
    call("e", "edit_file", { path: "hello.txt", old_text: "Buffer", new_text: "Agent" }),
    { text: "Edited the buffer." },
  ]);
  const path = `${project.root}/hello.txt`;
  const buffers = new Map([[path, "Hello Buffer\n"]]);
  const fsCalls: string[] = [];
  const seen = new Seen();
  await using tern = await startAcp(project.root, ["--approve", "edits"], env(model.url));
  const app = client(seen)
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      fsCalls.push(`read ${params.path}`);
      return { content: buffers.get(params.path) ?? Deno.readTextFileSync(params.path) };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      fsCalls.push(`write ${params.path}`);
      buffers.set(params.path, params.content);
      return {};
    });
  await app.connectWith(tern.stream, async (agent) => {
    await agent.request(acp.methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    const { sessionId } = await agent.request(acp.methods.agent.session.new, {
      cwd: project.root,
      mcpServers: [],
    });
    const done = await agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "edit it" }],
    });
    assertEquals(done.stopReason, "end_turn");
  });
  assertEquals(buffers.get(path), "Hello Agent\n");
  assertEquals(await Deno.readTextFile(path), "Hello World\n");
  assert(fsCalls.includes(`write ${path}`), fsCalls.join("\n"));
  const toolResult = (model.requests[1].messages as { role: string; content: string }[]).at(-1)!;
  assertStringIncludes(toolResult.content, "Hello Buffer");
});
