/** `tern -p` on a real terminal (tmux): a call that needs a yes is asked there, on stderr, not refused. */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { ternCommandLine } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";
import { startTmux } from "../../support/tmux.ts";

Deno.test("tern -p on a terminal asks before an edit, writes it on yes, and keeps stdout for the answer", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "write_file", arguments: '{"path":"a.txt","content":"hello\\n"}' }] },
    { text: "Wrote a.txt." },
  ]);
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  // stdout goes to a file: the question must still reach the terminal, and the file gets only the answer.
  const command =
    `cd ${project.root} && env ${env} ${await ternCommandLine()} -p 'write a.txt' > answer.out; ` +
    `echo "EXIT=$?"; sleep 30`;
  await using tern = await startTmux(command);
  const question = await tern.waitFor("Allow write_file on a.txt");
  assertStringIncludes(question, "+hello");
  await tern.send("1");
  const screen = await tern.waitFor("EXIT=");
  assertStringIncludes(screen, "EXIT=0");
  assert(!screen.includes("refused"), screen);
  assertEquals(await Deno.readTextFile(`${project.root}/a.txt`), "hello\n");
  assertEquals(await Deno.readTextFile(`${project.root}/answer.out`), "Wrote a.txt.\n");
});
