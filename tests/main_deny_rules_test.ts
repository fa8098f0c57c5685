/**
 * A project's deny rule `execute_command(rm *)` through the real CLI against the fake model server: the
 * walk-arounds issue 28 found, under every --approve mode, each in a temp project with its own file to lose.
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

type Sent = { role: string; content: string };

/** Each form deletes its own file: f0, f1, ... */
const FORMS = [
  (file: string) => `echo ${file} | xargs rm`,
  (file: string) => `bash <<< 'rm ${file}'`,
  (file: string) => `$'\\x72m' ${file}`,
  (file: string) => `find . -name ${file} -delete`,
  (file: string) => `python3 -c 'import os; os.remove("${file}")'`,
];

for (const mode of ["ask", "edits", "all"]) {
  Deno.test(`tern -p --approve ${mode}: a deny rule on rm holds against xargs, a here-string, $'\\x72m', find -delete and python -c`, async () => {
    const files = Object.fromEntries(FORMS.map((_, i) => [`f${i}`, "precious\n"]));
    await using project = await tempProject({
      ...files,
      ".tern/settings.json": JSON.stringify({ permissions: { deny: ["execute_command(rm *)"] } }),
    });
    const calls = FORMS.map((form, i) => ({
      name: "execute_command",
      arguments: JSON.stringify({ command: form(`f${i}`) }),
    }));
    await using model = await startFakeModel([{ toolCalls: calls }, { text: "Done." }]);
    const args = ["-p", "delete the files", "--approve", mode];
    const run = await runTern({ cwd: project.root, args, env: modelEnv(model.url) });
    assertEquals(run.stdout.trim().endsWith("Done."), true, run.stderr);
    for (const name of Object.keys(files)) {
      assertEquals(
        await Deno.readTextFile(join(project.root, name)),
        "precious\n",
        `${mode}: ${name} was deleted`,
      );
    }
    const results = (model.requests[1].messages as Sent[]).filter((message) => message.role === "tool");
    assertEquals(results.length, FORMS.length);
    for (const result of results.slice(0, 4)) {
      assertStringIncludes(result.content, 'the project\'s permission rule "deny execute_command(rm *)"');
    }
    assertStringIncludes(results[4].content, "cannot be read for certain");
  });
}
