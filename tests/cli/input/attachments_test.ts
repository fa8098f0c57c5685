import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { attachMentions } from "../../../src/cli/input/attachments.ts";
import { PromptHistory } from "../../../src/cli/input/prompt_history.ts";
import { createCompleter } from "../../../src/cli/input/completion.ts";
import { tempProject } from "../../support/temp_project.ts";
import { TERN_GITIGNORE } from "../../../src/agent/state/tern_dir.ts";

Deno.test("attachMentions() attaches @files through the path guard and refuses .env", async () => {
  await using project = await tempProject({ "src/a.ts": "one\ntwo\n", ".env": "KEY=secret\n" });
  const attached = await attachMentions("explain @src/a.ts. and @.env, thanks @bob", project.root);
  assertStringIncludes(attached.task, '<attached_file path="src/a.ts">\none\ntwo\n</attached_file>');
  assertEquals(attached.task.includes("secret"), false);
  assertEquals(attached.notes[0], "attached src/a.ts (2 lines)");
  assertStringIncludes(attached.notes[1], "not attached @.env");
  assertEquals(attached.notes.length, 2);
});

Deno.test("PromptHistory keeps multi-line entries per project across loads", async () => {
  await using project = await tempProject();
  const history = await PromptHistory.load(project.root);
  history.add("first");
  history.add("two\nlines");
  history.add("two\nlines");
  assertEquals((await PromptHistory.load(project.root)).entries(), ["first", "two\nlines"]);
  assertEquals(await Deno.readTextFile(`${project.root}/.tern/.gitignore`), TERN_GITIGNORE);
});

Deno.test("the completer offers slash commands and @paths under the root", async () => {
  await using project = await tempProject({ "src/app.ts": "", "src/api/x.ts": "", "README.md": "" });
  const complete = createCompleter(() => ["/clear", "/context", "/cost"], project.root);
  assertEquals(await complete("/co", 3), { start: 0, candidates: ["/context ", "/cost "] });
  assertEquals(await complete("look at @src/a", 14), { start: 9, candidates: ["src/api/", "src/app.ts "] });
  assertEquals(await complete("@../", 4), undefined);
});
