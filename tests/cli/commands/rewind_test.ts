/** `/rewind N` in a piped REPL (answers read as lines), through the real CLI. */
import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { testNeeding } from "../../support/requires.ts";
import { tempProject } from "../../support/temp_project.ts";

testNeeding(["git"], "/rewind N takes the files and the conversation back to before turn N", async () => {
  await using project = await tempProject({});
  const write = (path: string) => ({
    toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path, content: `${path}\n` }) }],
  });
  await using model = await startFakeModel([write("a.txt"), { text: "a" }, write("b.txt"), { text: "b" }, {
    text: "c",
  }]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" };
  const input = "/rewind\nmake a\nmake b\n/rewind 7\n/rewind 2\na\nwhat now\n/exit\n";
  const repl = await runTern({ cwd: project.root, args: ["--approve", "all"], env, input });
  assertEquals(repl.code, 0, repl.stderr);
  assertStringIncludes(repl.stdout, "Nothing to rewind in this conversation.");
  assertStringIncludes(repl.stdout, "There is no turn 7: pick 1 to 2.");
  assertStringIncludes(repl.stdout, 'Rewind to before turn 2 "make b" (1 turn(s) back)');
  assertStringIncludes(repl.stdout, "Undone: 1 file(s) restored, conversation rewound.");
  assertEquals(await Deno.readTextFile(`${project.root}/a.txt`), "a.txt\n");
  await Deno.stat(`${project.root}/b.txt`).then(() => {
    throw new Error("b.txt should be gone");
  }, () => {});
  const sent = model.requests.at(-1)!.messages as { role: string; content: string }[];
  assertEquals(sent.filter((m) => m.role === "user").map((m) => m.content), ["make a", "what now"]);
});
