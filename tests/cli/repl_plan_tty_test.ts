/** Plan mode and the plan in the REPL on a real terminal (tmux), read off the screen as a person sees it. */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";
import { startTmux } from "../support/tmux.ts";

const EDIT = JSON.stringify({ path: "greet.txt", old_text: "Hello", new_text: "Howdy" });
const PLAN = JSON.stringify({ plan: "[>] read greet.txt\n[ ] change the word" });

Deno.test("Shift+Tab to plan mode: the plan is shown, a write is refused, and accepting the plan carries it out", async () => {
  await using project = await tempProject({ "greet.txt": "Hello\n" });
  await using model = await startFakeModel([
    {
      toolCalls: [{ name: "update_plan", arguments: PLAN }, {
        name: "read_file",
        arguments: '{"path":"greet.txt"}',
      }],
    },
    { toolCalls: [{ name: "edit_file", arguments: EDIT }] },
    { text: "My plan: change Hello to Howdy in greet.txt." },
    { toolCalls: [{ name: "edit_file", arguments: EDIT }] },
    { text: "Done: it says Howdy." },
  ]);
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`);
  await tern.waitFor("ask ›");
  await tern.send("BTab");
  await tern.waitFor("edits ›");
  await tern.send("BTab");
  await tern.waitFor("plan ›");
  await tern.send("make it say Howdy", "Enter");
  const asked = await tern.waitFor("Accept the plan?");
  assertStringIncludes(asked, "Plan · 0/2 done\n  ▸ read greet.txt\n  ○ change the word");
  assertStringIncludes(asked, "edit_file was not run: plan mode is on");
  assertStringIncludes(asked, "My plan: change Hello to Howdy in greet.txt.");
  assertEquals(await Deno.readTextFile(`${project.root}/greet.txt`), "Hello\n");
  await tern.send("e", "Enter");
  const done = await tern.waitFor("Done: it says Howdy.");
  assertStringIncludes(done, "Plan accepted; approval mode is now edits.");
  await tern.waitFor("edits ›");
  assertEquals(await Deno.readTextFile(`${project.root}/greet.txt`), "Howdy\n");
  const sent = model.requests[3].messages as { role: string; content: string }[];
  assertStringIncludes(sent.at(-1)!.content, "The user accepted your plan");
  await tern.send("C-d");
  assert(await tern.waitForExit(), "tern exits on Ctrl-D");
});
