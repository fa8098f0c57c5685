import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

const GUIDE = "# Guide\\n\\nRun deno task test.\\n";

Deno.test("/memory right after /init shows the AGENTS.md just written and when it takes effect", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "write_file", arguments: `{"path":"AGENTS.md","content":"${GUIDE}"}` }] },
    { text: "Wrote AGENTS.md." },
    { text: "Read it." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["--approve", "all"], // AGENTS.md is a protected path: it asks under edits
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: "/init\n/memory\n/clear\nhi\n/memory\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  const shown = run.stdout.slice(run.stdout.indexOf("Wrote AGENTS.md."));
  assertStringIncludes(
    shown,
    "AGENTS.md was written since this conversation started: new conversations carry it (/clear, or the next tern).",
  );
  assertStringIncludes(shown, "Run deno task test.");
  assertEquals(shown.includes("No project memory"), false, shown);
  // After /clear the new conversation carries it: in its system prompt, and /memory says so plainly.
  const system = (model.requests[2].messages as { content: string }[])[0].content;
  assertStringIncludes(system, "Run deno task test.");
  const after = run.stdout.slice(run.stdout.indexOf("Read it."));
  assertStringIncludes(after, "Project memory from AGENTS.md");
  assertEquals(after.includes("was written since"), false, after);
});
