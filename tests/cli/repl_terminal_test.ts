/**
 * The REPL as a person uses it (issue 11), under tmux against the fake model: a paste is one prompt,
 * answers render as markdown and stay in the scrollback, Ctrl-D at the approval prompt stops only the turn,
 * a saved prefix rule holds in the next session, and the status line shows context and cache figures.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { type TempProject, tempProject } from "../support/temp_project.ts";
import { startTmux, tmux, type TmuxSession } from "../support/tmux.ts";
import { testNeeding } from "../support/requires.ts";

async function startRepl(project: TempProject, model: FakeModel, flags = ""): Promise<TmuxSession> {
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  const tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()} ${flags}`);
  await tern.waitFor("›");
  return tern;
}

function lastUserMessage(model: FakeModel, index: number): string {
  const messages = model.requests[index].messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "user").at(-1)!.content;
}

testNeeding(["tmux"], "a 50-line paste is one prompt, shown as a marker and sent whole", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([{ text: "Got it." }]);
  await using tern = await startRepl(project, model);
  const lines = Array.from({ length: 50 }, (_, i) => `pasted line ${i + 1}`);
  const file = `${project.root}/paste.txt`;
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  await tern.send("look at this: ");
  await tmux("load-buffer", "-b", tern.name, file);
  await tmux("paste-buffer", "-p", "-d", "-b", tern.name, "-t", tern.name);
  await tern.waitFor("[pasted 50 lines #1]");
  await tern.send(" thanks", "Enter");
  await tern.waitFor("Got it.");
  assertEquals(model.requests.length, 1);
  assertEquals(lastUserMessage(model, 0), `look at this: ${lines.join("\n")}\n thanks`);
});

testNeeding(
  ["tmux"],
  "a 300-line paste, longer than one read of the terminal, is one prompt, and a /exit line in it runs nothing",
  async () => {
    await using project = await tempProject();
    await using model = startFakeModel([{ text: "Got it." }]);
    await using tern = await startRepl(project, model);
    const lines = Array.from(
      { length: 300 },
      (_, i) => i === 149 ? "/exit" : `pasted line ${i + 1} ${"x".repeat(40)}`,
    );
    const file = `${project.root}/paste.txt`;
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
    await tmux("load-buffer", "-b", tern.name, file);
    await tmux("paste-buffer", "-p", "-d", "-b", tern.name, "-t", tern.name);
    await tern.waitFor("[pasted 300 lines #1]");
    await tern.send("Enter");
    await tern.waitFor("Got it.");
    assertEquals(model.requests.length, 1);
    assertEquals(lastUserMessage(model, 0), lines.join("\n")); // the prompt's final newline trimmed
    // Still running: the REPL answers a command typed now.
    await tern.send("/cost", "Enter");
    await tern.waitFor("1 model call");
  },
);

const MARKDOWN = [
  "# Findings",
  "",
  "The **parser** is fine; `lexer()` is not.",
  "",
  "- first point",
  "- second point",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "| name | count |",
  "| ---- | ----: |",
  "| alpha | 1 |",
  "| beta | 22 |",
  "",
  "That is all.",
].join("\n");

testNeeding(
  ["tmux"],
  "an answer renders as markdown, and scrollback keeps all of it after 300 more lines",
  async () => {
    await using project = await tempProject();
    const long = Array.from({ length: 300 }, (_, i) => `filler ${i + 1}`).join("\n\n");
    await using model = startFakeModel([
      { text: MARKDOWN, chunkSize: 7, usage: { prompt_tokens: 16_000, completion_tokens: 100 } },
      { text: long, chunkSize: 400 },
    ]);
    await using tern = await startRepl(project, model);
    await tern.send("report", "Enter");
    // The status line comes once the answer has ended: waiting for it, the screen holds both.
    const screen = await tern.waitFor("fake-model · context");
    const answer = screen.slice(screen.indexOf("Findings"), screen.indexOf("That is all."));
    for (const raw of ["# ", "**", "`", "```", "|", "- first"]) {
      assert(!answer.includes(raw), `raw ${raw}:\n${answer}`);
    }
    assertStringIncludes(answer, "• first point");
    assertStringIncludes(answer, "const answer = 42;");
    assertStringIncludes(answer, "alpha │     1");
    const colours = (await tmux("capture-pane", "-p", "-e", "-t", tern.name)).text;
    assertStringIncludes(colours, "\x1b[1;4mFindings"); // bold, underlined heading (as tmux encodes it)
    // The first code block of the session is coloured: the highlighter loaded before the answer was drawn.
    assertStringIncludes(colours, "\x1b[35mconst");
    // The status line: context used of the window, and the cache-hit share.
    assertStringIncludes(screen, "fake-model · context");
    assert(/context \d+% \(16k\/\d+k\) · 16k in · 100 out · cache 0%/.test(screen), screen);
    await tern.send("more", "Enter");
    const after = await tern.waitFor("filler 300");
    for (const line of MARKDOWN.split("\n").filter((l) => /^[A-Z]/.test(l))) {
      assertStringIncludes(after, line.replaceAll("**", "").replaceAll("`", ""));
    }
    assertStringIncludes(after, "Findings");
    assertStringIncludes(after, "filler 1\n");
  },
);

testNeeding(
  ["tmux"],
  "the first code block of a session is coloured even when the answer arrives at once",
  async () => {
    await using project = await tempProject();
    await using model = startFakeModel([{
      text: "```ts\nconst answer = 42;\n```\n\nDone.",
      chunkSize: 1000,
    }]);
    await using tern = await startRepl(project, model);
    await tern.send("code", "Enter");
    await tern.waitFor("fake-model · context");
    const colours = (await tmux("capture-pane", "-p", "-e", "-t", tern.name)).text;
    // Drawn plain, it would be yellow ("\x1b[33mconst answer"): the highlighter had not loaded yet.
    assertStringIncludes(colours, "\x1b[35mconst");
  },
);

const EDIT: ScriptedTurn = {
  toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "new.txt", content: "x\n" }) }],
};

testNeeding(
  ["tmux"],
  "Ctrl-D at the approval prompt three times in a row stops each turn and the REPL stays usable",
  async () => {
    await using project = await tempProject();
    await using model = startFakeModel([EDIT, EDIT, EDIT, { text: "Still here." }]);
    await using tern = await startRepl(project, model);
    for (let i = 1; i <= 3; i++) {
      await tern.waitFor("›", { count: i });
      await tern.send(`task ${i}`, "Enter");
      await tern.waitFor("Allow write_file on new.txt", { count: i });
      await tern.send("C-d");
      await tern.waitFor("Cancelled.", { count: i });
    }
    await tern.waitFor("›", { count: 4 });
    await tern.send("are you there", "Enter");
    await tern.waitFor("Still here.");
    assert((await Deno.stat(`${project.root}/new.txt`).catch(() => null)) === null, "nothing was written");
  },
);

testNeeding(
  ["tmux"],
  "a prefix rule saved at the prompt lets npm test run unasked in the next session",
  async () => {
    await using project = await tempProject({
      "package.json": JSON.stringify({ name: "p", scripts: { test: "echo tests pass" } }),
    });
    const npmTest = (command: string): ScriptedTurn => ({
      toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command }) }],
    });
    {
      await using model = startFakeModel([npmTest("npm test"), { text: "First done." }]);
      await using tern = await startRepl(project, model, "--sandbox off");
      await tern.send("run the tests", "Enter");
      const prompt = await tern.waitFor("No, abort this turn");
      assertStringIncludes(prompt, '4. Yes, and always allow commands starting with "npm test"');
      await tern.send("4");
      await tern.waitFor("First done.");
      await tern.send("C-d");
      assert(await tern.waitForExit(), "tern exits on Ctrl-D");
    }
    const settings = JSON.parse(await Deno.readTextFile(`${project.root}/.tern/local/settings.json`));
    assertEquals(settings.permissions, { allow: ["execute_command(npm test*)"] });
    await using model = startFakeModel([npmTest("npm test -- --silent"), { text: "Second done." }]);
    await using tern = await startRepl(project, model, "--sandbox off");
    await tern.send("run them again", "Enter");
    const screen = await tern.waitFor("Second done.");
    assert(!screen.includes("Run this command"), screen);
    assertStringIncludes(screen, "exit 0");
    await tern.send("/permissions", "Enter");
    await tern.waitFor("  execute_command(npm test*)");
  },
);

testNeeding(["tmux"], "with --approve edits an edit runs unasked and its diff is still shown", async () => {
  await using project = await tempProject({ "hello.txt": "Hello World\n" });
  await using model = startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }] },
    {
      toolCalls: [{
        name: "edit_file",
        arguments: '{"path":"hello.txt","old_text":"World","new_text":"Agent"}',
      }],
    },
    { text: "Changed." },
  ]);
  await using tern = await startRepl(project, model, "--approve edits");
  await tern.send("change it", "Enter");
  const screen = await tern.waitFor("Changed.");
  assertStringIncludes(screen, "-Hello World\n+Hello Agent\n+1 −1 lines");
  assertStringIncludes(screen, "⎿ ok hello.txt: +1 −1 lines");
  assert(!screen.includes("Allow edit_file"), screen);
});
