/** /undo on a real terminal: a turn that edits one file and `rm`s another is undone, files and conversation. */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";
import { startTmux } from "../support/tmux.ts";
import { testNeeding } from "../support/requires.ts";

testNeeding(
  ["tmux", "git"],
  "/undo under tmux restores an edited and an rm'd file and drops the turn from the conversation",
  async () => {
    await using project = await tempProject({ "hello.txt": "Hello World\n", "keep.txt": "precious\n" });
    await using model = await startFakeModel([
      { text: "First turn, nothing changed." },
      { toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }] },
      {
        toolCalls: [
          { name: "edit_file", arguments: '{"path":"hello.txt","old_text":"World","new_text":"Agent"}' },
          { name: "execute_command", arguments: '{"command":"rm keep.txt && echo gone > made.txt"}' },
        ],
      },
      { text: "Edited and removed." },
      { text: "Third answer." },
    ]);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
    await using tern = await startTmux(
      `cd ${project.root} && env ${env} ${await ternCommandLine()} --approve all`,
    );
    await tern.waitFor("›");
    await tern.send("first task", "Enter");
    await tern.waitFor("First turn, nothing changed.");
    await tern.send("change things in @hello.txt", "Enter");
    await tern.waitFor("Edited and removed.");
    await tern.waitFor("unknown price", { count: 2 }); // the second task's status line: it has ended
    assertEquals(await Deno.readTextFile(`${project.root}/hello.txt`), "Hello Agent\n");
    await tern.send("/undo", "Enter");
    const asked = await tern.waitFor("4. No");
    assertStringIncludes(asked, 'Undo the turn "change things in @hello.txt"\n');
    assert(!asked.includes("attached_file"), asked); // the attachment tern added is not shown
    assertStringIncludes(asked, "keep.txt");
    assertStringIncludes(asked, "made.txt");
    assertStringIncludes(asked, "? Undo what?");
    await tern.send("1"); // one key, as in the approval menu
    await tern.waitFor("Undone: 3 file(s) restored, conversation rewound.");
    assertEquals(await Deno.readTextFile(`${project.root}/hello.txt`), "Hello World\n");
    assertEquals(await Deno.readTextFile(`${project.root}/keep.txt`), "precious\n");
    await Deno.stat(`${project.root}/made.txt`).then(() => assert(false, "made.txt is gone"), () => {});
    await tern.send("next task", "Enter");
    await tern.waitFor("Third answer.");
    const users = (model.requests.at(-1)!.messages as { role: string; content: string }[])
      .filter((message) => message.role === "user").map((message) => message.content);
    assertEquals(users, ["first task", "next task"]);
    await tern.send("/exit", "Enter");
    assert(await tern.waitForExit(), "tern exits on /exit");
  },
);

testNeeding(["tmux"], "/init under tmux: the model writes AGENTS.md after approval", async () => {
  await using project = await tempProject({ "deno.json": '{"tasks":{"test":"deno test"}}\n' });
  await using model = await startFakeModel([
    {
      toolCalls: [{
        name: "write_file",
        arguments: JSON.stringify({ path: "AGENTS.md", content: "# Agents\nTest with `deno task test`.\n" }),
      }],
    },
    { text: "Wrote AGENTS.md." },
  ]);
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`);
  await tern.waitFor("›");
  await tern.send("/memory", "Enter");
  await tern.waitFor("No project memory");
  await tern.send("/init", "Enter");
  const question = await tern.waitFor("Allow write_file on AGENTS.md");
  assertStringIncludes(question, "Test with `deno task test`.");
  assertEquals((model.requests[0].messages as { content: string }[])[1].content.startsWith("Survey"), true);
  await tern.send("Enter"); // "1. Yes" is selected
  await tern.waitFor("Wrote AGENTS.md.");
  assertEquals(
    await Deno.readTextFile(`${project.root}/AGENTS.md`),
    "# Agents\nTest with `deno task test`.\n",
  );
  await tern.send("/exit", "Enter");
  assert(await tern.waitForExit(), "tern exits on /exit");
});

Deno.test("/undo under tmux names a file the user changed after the turn and keeps it when told to", async () => {
  await using project = await tempProject({ "notes.txt": "v1\n" });
  await using model = await startFakeModel([
    {
      toolCalls: [{
        name: "execute_command",
        arguments: '{"command":"echo v2 > notes.txt && echo x > made.txt"}',
      }],
    },
    { text: "Updated." },
  ]);
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  await using tern = await startTmux(
    `cd ${project.root} && env ${env} ${await ternCommandLine()} --approve all`,
  );
  await tern.waitFor("›");
  await tern.send("update the notes", "Enter");
  await tern.waitFor("unknown price"); // the status line: the task has ended
  // The user reads the answer, then edits (the turn's end is snapshotted in the background meanwhile).
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await Deno.writeTextFile(`${project.root}/notes.txt`, "v3, the user's own edit\n");
  await tern.send("/undo", "Enter");
  await tern.waitFor("4. No");
  await tern.send("1");
  const asked = await tern.waitFor("3. No undo");
  assertStringIncludes(
    asked,
    "Changed after that turn (by you, or something other than the turn): notes.txt",
  );
  await tern.send("2"); // keep them
  await tern.waitFor("Undone: 1 file(s) restored, 1 newer file(s) kept, conversation rewound.");
  assertEquals(await Deno.readTextFile(`${project.root}/notes.txt`), "v3, the user's own edit\n");
  await Deno.stat(`${project.root}/made.txt`).then(() => assert(false, "made.txt is gone"), () => {});
  await tern.send("/exit", "Enter");
  assert(await tern.waitForExit(), "tern exits on /exit");
});
