/** The REPL on a real terminal: driven under tmux, read off the screen as a person would see it. */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";
import { startTmux } from "../support/tmux.ts";
import { testNeeding } from "../support/requires.ts";

testNeeding(
  ["tmux"],
  "the REPL on a terminal asks before an edit, streams the answer, and Ctrl-C twice exits",
  async () => {
    await using project = await tempProject({ "hello.txt": "Hello World\n" });
    await using model = await startFakeModel([
      { toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }] },
      {
        toolCalls: [{
          name: "edit_file",
          arguments: '{"path":"hello.txt","old_text":"World","new_text":"Agent"}',
        }],
      },
      { reasoning: "The edit worked.", text: "Greeting changed." },
    ]);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
    await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`);
    await tern.waitFor("›");
    await tern.send("change the greeting", "Enter");
    const question = await tern.waitFor("Allow edit_file on hello.txt?");
    assertStringIncludes(question, "⏺ edit_file hello.txt");
    await tern.send("y", "Enter");
    const answered = await tern.waitFor("Greeting changed.");
    assertStringIncludes(answered, "⎿ ok hello.txt: +1 −1 lines");
    assertStringIncludes(answered, "The edit worked.");
    assertEquals(await Deno.readTextFile(`${project.root}/hello.txt`), "Hello Agent\n");
    await tern.waitFor("unknown price"); // the status line: the task has ended
    await tern.send("C-c");
    await tern.waitFor("press Ctrl-C again to exit");
    await tern.send("C-c");
    assert(await tern.waitForExit(), "tern exits on the second Ctrl-C");
  },
);

testNeeding(
  ["tmux"],
  "lines typed ahead while a command runs are each run in turn, not joined into one multi-line prompt",
  async () => {
    await using project = await tempProject({});
    await using model = await startFakeModel([{ text: "unused" }]);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
    await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`);
    await tern.waitFor("›");
    // All at once: /cost and /permissions arrive while /clear still runs (the terminal is in cooked mode).
    await tern.send("/clear", "Enter", "/cost", "Enter", "/permissions", "Enter");
    const screen = await tern.waitFor("approval mode: ask");
    assertStringIncludes(screen, "Conversation cleared.");
    assertStringIncludes(screen, "0 model calls");
    await tern.send("C-d");
    assert(await tern.waitForExit(), "tern exits on Ctrl-D");
  },
);
