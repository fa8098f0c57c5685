/** runTask() and the approval gate: denials, aborts, validation before asking, what the gate is told. */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runTask } from "../../../src/agent/loop/loop.ts";
import { createApprovalGate } from "../../../src/agent/policy/approval.ts";
import type { Message } from "../../../src/llm/types.ts";
import { createRegistry } from "../../../src/tools/registry.ts";
import type { Tool } from "../../../src/tools/tool.ts";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { createFileTracker } from "../../../src/fs/file_tracker.ts";
import { join } from "node:path";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { tempProject } from "../../support/temp_project.ts";
import { echoTool, loopOptions, system, writeCalls, writeTool } from "./_loop_fixtures.ts";

Deno.test("runTask() does not run a denied write and tells the model why", async () => {
  writeCalls.length = 0;
  await using model = await startFakeModel([
    { toolCalls: [{ name: "write_note", arguments: '{"text":"x"}' }] },
    { text: "Could not write." },
  ]);
  const history = system();
  await runTask(history, "go", loopOptions(model, { approve: createApprovalGate("ask") }));
  assertEquals(writeCalls, []);
  const result = history.messages()[3] as Extract<Message, { role: "tool" }>;
  assert(result.isError);
  assertStringIncludes(result.content, "--approve");
});

Deno.test("runTask() does not ask approval for a call whose arguments fail the schema", async () => {
  await using model = await startFakeModel([
    { toolCalls: [{ name: "write_note", arguments: '{"txt":"x"}' }] },
    { text: "Fixed nothing." },
  ]);
  const asked: string[] = [];
  const history = system();
  await runTask(
    history,
    "go",
    loopOptions(model, {
      approve: createApprovalGate("ask", (request) => {
        asked.push(request.call.name);
        return Promise.resolve(true);
      }),
    }),
  );
  assertEquals(asked, []);
  const result = history.messages()[3] as Extract<Message, { role: "tool" }>;
  assert(result.isError);
  assertStringIncludes(result.content, '"text"');
});

Deno.test("runTask() passes the user's reason for a denial on to the model", async () => {
  writeCalls.length = 0;
  await using model = await startFakeModel([
    { toolCalls: [{ name: "write_note", arguments: '{"text":"x"}' }] },
    { text: "OK, I will not." },
  ]);
  const history = system();
  const approve = createApprovalGate("ask", () => Promise.resolve({ kind: "deny", reason: "not now" }));
  await runTask(history, "go", loopOptions(model, { approve }));
  assertEquals(writeCalls, []);
  const result = history.messages()[3] as Extract<Message, { role: "tool" }>;
  assertStringIncludes(result.content, "The user denied this call: not now");
});

Deno.test("runTask() ends the task as cancelled when the user aborts the turn at an approval prompt", async () => {
  writeCalls.length = 0;
  await using model = await startFakeModel([
    {
      toolCalls: [
        { name: "write_note", arguments: '{"text":"first"}' },
        { name: "write_note", arguments: '{"text":"second"}' },
      ],
    },
    { text: "Fresh answer." },
  ]);
  const asked: string[] = [];
  const approve = createApprovalGate("ask", (request) => {
    asked.push(request.call.arguments);
    return Promise.resolve({ kind: "abort" });
  });
  const history = system();
  const result = await runTask(history, "go", loopOptions(model, { approve }));
  assertEquals(result.exitReason, "cancelled");
  assertEquals(asked, ['{"text":"first"}']);
  assertEquals(writeCalls, []);
  const tools = history.messages().filter((message) => message.role === "tool") as Extract<
    Message,
    { role: "tool" }
  >[];
  assertEquals(tools.length, 2);
  assert(tools.every((message) => message.content.includes("cancelled by the user")));
  assertEquals((await runTask(history, "again", loopOptions(model))).text, "Fresh answer.");
});

Deno.test("runTask() hands the approval gate each call's own inspection, and asks nothing for reads", async () => {
  const seen: unknown[] = [];
  const execTool: Tool<{ command: string; network?: boolean }> = {
    name: "run_it",
    description: "Pretends to run.",
    guidance: "run_it: pretend to run.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "c" },
        network: { type: "boolean", description: "n" },
      },
      required: ["command"],
    },
    inspect: (args) =>
      Promise.resolve({
        effect: args.network ? "network" : "exec",
        paths: [],
        sandboxed: !args.network,
        summary: args.command,
      }),
    run: () => Promise.resolve("ran"),
  };
  await using model = await startFakeModel([
    {
      toolCalls: [
        { name: "run_it", arguments: '{"command":"ls"}' },
        { name: "echo", arguments: '{"text":"r"}' },
        { name: "run_it", arguments: '{"command":"curl x","network":true}' },
        { name: "write_note", arguments: '{"text":"x"}' },
      ],
    },
    { text: "Done." },
  ]);
  await runTask(
    system(),
    "go",
    loopOptions(model, {
      registry: createRegistry([execTool, writeTool, echoTool]),
      approve: (request) => {
        seen.push([request.call.name, request.inspection]);
        return Promise.resolve({ allow: true });
      },
    }),
  );
  assertEquals(seen, [
    ["run_it", { effect: "exec", paths: [], sandboxed: true, summary: "ls" }],
    ["run_it", { effect: "network", paths: [], sandboxed: false, summary: "curl x" }],
    ["write_note", { effect: "write", paths: ["notes.txt"], summary: "x" }],
  ]);
});

Deno.test("runTask() writes the edit the human approved, and refuses one whose file changed before it ran", async () => {
  await using project = await tempProject({ "a.txt": "one\n", "b.txt": "two\n" });
  const read = (path: string) => ({ name: "read_file", arguments: JSON.stringify({ path }) });
  const edit = (path: string, old_text: string) => ({
    name: "edit_file",
    arguments: JSON.stringify({ path, old_text, new_text: "EDITED" }),
  });
  await using model = await startFakeModel([
    { toolCalls: [read("a.txt"), read("b.txt"), edit("a.txt", "one"), edit("b.txt", "two")] },
    { text: "Done." },
  ]);
  const approved: string[] = [];
  const opts = loopOptions(model, {
    registry: createRegistry(builtinTools({ files: createFileTracker() })),
    root: project.root,
    approve: async (request) => {
      const preview = request.inspection.preview;
      if (preview?.kind === "diff") approved.push(preview.after);
      // Another process changes b.txt while the human looks at its preview.
      if (preview?.kind === "diff" && preview.path === "b.txt") {
        await Deno.writeTextFile(join(project.root, "b.txt"), "two, changed elsewhere\n");
      }
      return { allow: true };
    },
  });
  await runTask(system(), "edit both", opts);
  assertEquals(approved, ["EDITED\n", "EDITED\n"]);
  assertEquals(await Deno.readTextFile(join(project.root, "a.txt")), approved[0]);
  assertEquals(await Deno.readTextFile(join(project.root, "b.txt")), "two, changed elsewhere\n");
  const results = opts.events.flatMap((event) => event.type === "tool_result" ? [event] : []);
  assertEquals(results.map((result) => result.errorKind), [undefined, undefined, undefined, "stale"]);
  assertStringIncludes(results[3].content, "b.txt changed since you read it");
});
