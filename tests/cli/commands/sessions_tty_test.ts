/** Choosing a saved session: `tern sessions` and the `tern -r` picker (under tmux) as a newcomer meets them. */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern, ternCommandLine } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";
import { startTmux } from "../../support/tmux.ts";
import { testNeeding } from "../../support/requires.ts";

/** A project with one `-p` run and one REPL conversation saved (the REPL's the newer). */
async function twoSessions(root: string, url: string): Promise<void> {
  const env = { TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" };
  const headless = await runTern({ cwd: root, args: ["-p", "the headless question"], env });
  assertEquals(headless.code, 0, headless.stderr);
  await Deno.writeTextFile(`${root}/notes.md`, "notes\n");
  const repl = await runTern({
    cwd: root,
    args: [],
    env,
    input: "the repl question about @notes.md\n/exit\n",
  });
  assertEquals(repl.code, 0, repl.stderr);
}

Deno.test("tern sessions shows each session's age, REPL or -p, and first prompt as typed", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "one" }, { text: "two" }]);
  await twoSessions(project.root, model.url);
  const run = await runTern({ cwd: project.root, args: ["sessions"] });
  assertEquals(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  assertEquals(lines.length, 2, run.stdout);
  assertMatch(
    lines[0],
    /^ 1\. just now · REPL · 1 prompt · "the repl question about @notes\.md" · fake-model · \d{8}-/,
  );
  assertMatch(lines[1], /^ 2\. just now · -p · 1 prompt · "the headless question" · fake-model · \d{8}-/);
  assert(!run.stdout.includes("attached_file"), run.stdout);
});

testNeeding(["tmux"], "tern -r is a menu: Esc cancels it, and a key picks a session", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
  await twoSessions(project.root, model.url);
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  const command = `cd ${project.root} && env ${env} ${await ternCommandLine()} -r; echo "exit $?"; sleep 30`;
  {
    await using tern = await startTmux(command);
    const menu = await tern.waitFor("Resume which session? (Esc: none)");
    assertStringIncludes(menu, '-p · 1 prompt · "the headless question"');
    await tern.send("Escape");
    const after = await tern.waitFor("exit 2");
    assertStringIncludes(after, "tern: no session chosen");
  }
  await using tern = await startTmux(command);
  await tern.waitFor("Resume which session?");
  await tern.send("2");
  const resumed = await tern.waitFor("(resumed, 1 prompt(s))");
  assertStringIncludes(resumed, "the headless question");
  await tern.send("C-d");
  await tern.waitFor("exit 0");
});

testNeeding(["tmux"], "Ctrl-L clears the screen and redraws the prompt with what was typed", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "An answer worth clearing." }]);
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`);
  await tern.waitFor("›");
  await tern.send("hello", "Enter");
  await tern.waitFor("An answer worth clearing.");
  await tern.waitFor("fake-model · context"); // the status line: the prompt is back
  await tern.send("draft");
  await tern.waitFor("ask › draft");
  await tern.send("C-l");
  let screen = "";
  for (let tries = 0; tries < 100; tries++) {
    screen = await tern.screen();
    if (!screen.includes("An answer worth clearing.")) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert(!screen.includes("An answer worth clearing."), screen);
  assertEquals(screen.trimStart().split("\n")[0], "ask › draft");
  await tern.send("C-u", "C-d");
  assert(await tern.waitForExit(), "tern exits on Ctrl-D");
});
