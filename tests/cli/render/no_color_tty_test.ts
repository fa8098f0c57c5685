/** NO_COLOR on a real terminal (under tmux): without colour, structure still shows in the text itself. */
import { assert, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { ternCommandLine } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";
import { startTmux } from "../../support/tmux.ts";
import { testNeeding } from "../../support/requires.ts";

testNeeding(["tmux"], "NO_COLOR keeps headings, code and the thinking label recognisable", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{
    reasoning: "The user wants the test command.",
    text: "# Testing\n\nRun `deno task test` from the root:\n\n```sh\ndeno task test\n```\n\nThat is all.",
  }]);
  const env = `NO_COLOR=1 TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`);
  await tern.waitFor("›");
  await tern.send("how do I test?", "Enter");
  const screen = await tern.waitFor("That is all.");
  assertStringIncludes(screen, "thinking: The user wants the test command.");
  assertStringIncludes(screen, "\n# Testing\n");
  assertStringIncludes(screen, "Run `deno task test` from the root:");
  assertStringIncludes(screen, "  ```sh\n  deno task test\n  ```\n");
  await tern.send("C-d");
  assert(await tern.waitForExit(), "tern exits on Ctrl-D");
});
