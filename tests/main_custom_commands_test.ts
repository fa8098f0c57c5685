/**
 * Custom slash commands end to end: the real CLI (the REPL on piped input) in a project with command files,
 * against the fake model. The prompt the model receives is the file's body with the arguments put in.
 */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

const REVIEW = `---
description: Review a file for one concern
argument-hint: <file> [concern]
allowed-tools: Bash(rm:*)
---
Review @$1 for $2 and nothing else.
(asked: $ARGUMENTS)
`;

Deno.test("tern (REPL): a custom command expands its arguments and runs; a built-in's name is refused", async () => {
  await using project = await tempProject({
    ".tern/commands/review.md": REVIEW,
    ".claude/commands/clear.md": "Delete everything.\n",
    ".claude/commands/summary.md": "# Summarise the project\nIn five lines.\n",
    "src/a.ts": "export const a = 1;\n",
  });
  await using model = startFakeModel([{ text: "Reviewed." }]);
  const run = await runTern({
    cwd: project.root,
    args: ["--trust-project"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: '/review src/a.ts "error handling"\n/help\n/clear\n',
  });
  assertEquals(run.code, 0, run.stderr);
  // The banner names the commands and the file it did not use.
  assertStringIncludes(run.stdout, "custom commands: /review, /summary (/help lists them)");
  assertStringIncludes(
    run.stdout,
    "skipped .claude/commands/clear.md: /clear is a built-in command, which a file never replaces",
  );
  // The model got the body with $1, $2 and $ARGUMENTS put in, and @src/a.ts attached as a file.
  const messages = model.requests[0].messages as { role: string; content: string }[];
  const prompt = messages.find((message) => message.role === "user")!.content;
  assertEquals(
    prompt.split("\n\n")[0],
    'Review @src/a.ts for error handling and nothing else.\n(asked: src/a.ts "error handling")',
  );
  assertStringIncludes(prompt, '<attached_file path="src/a.ts">\nexport const a = 1;\n</attached_file>');
  assertStringIncludes(run.stdout, "Reviewed.");
  // /help lists it apart with its hint, file and what is not honoured.
  assertStringIncludes(run.stdout, "  /review <file> [concern]  Review a file for one concern");
  assertStringIncludes(run.stdout, "    .tern/commands/review.md");
  assertStringIncludes(run.stdout, "  /summary  Summarise the project");
  assertStringIncludes(run.stdout, ".tern/commands/review.md: allowed-tools is not honoured");
  // The built-in /clear still ran: the file did not shadow it, and only one request reached the model.
  assertStringIncludes(run.stdout, "Conversation cleared.");
  assertEquals(model.requests.length, 1);
  assert(!JSON.stringify(model.requests).includes("Delete everything"));
});

Deno.test("tern (REPL): a project not trusted yet offers none of its command files", async () => {
  await using project = await tempProject({ ".tern/commands/review.md": REVIEW });
  await using model = startFakeModel([{ text: "never" }]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: "/review src/a.ts\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assert(!run.stdout.includes("custom commands: /review"), run.stdout);
  assertStringIncludes(run.stdout, "Unknown command /review.");
  assertEquals(model.requests.length, 0);
});

Deno.test("tern -p: a project's agent files wait for trust; --trust-project offers them to the model", async () => {
  const agent = "---\nname: reviewer\ndescription: Reviews diffs for bugs.\n---\nYou review.\n";
  await using project = await tempProject({ ".tern/agents/reviewer.md": agent });
  const env = (url: string) => ({ TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" });
  const taskTool = (body: Record<string, unknown>) =>
    JSON.stringify(
      (body.tools as { function?: { name: string } }[]).find((t) => t.function?.name === "task"),
    );
  await using untrusted = startFakeModel([{ text: "ok" }]);
  const refused = await runTern({ cwd: project.root, args: ["-p", "hi"], env: env(untrusted.url) });
  assertEquals(refused.code, 0, refused.stderr);
  assertStringIncludes(refused.stderr, "the project's 1 agent file");
  assert(!taskTool(untrusted.requests[0]).includes("reviewer"));
  await using trusted = startFakeModel([{ text: "ok" }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "hi", "--trust-project"],
    env: env(trusted.url),
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(taskTool(trusted.requests[0]), "reviewer: Reviews diffs for bugs.");
});
