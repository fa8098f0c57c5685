import { assertEquals } from "../../support/assert.ts";
import { headlessTask, MAX_STDIN_CHARS, type StdinLike } from "../../../src/cli/headless/input.ts";
import { runTern } from "../../support/cli.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { tempProject } from "../../support/temp_project.ts";

function stdinOf(text: string, terminal = false): StdinLike {
  return { readable: new Blob([text]).stream(), isTerminal: () => terminal };
}

/** A stdin that stays open and never sends anything. */
function silentStdin(): StdinLike {
  return { readable: new ReadableStream({ pull: () => new Promise(() => {}) }), isTerminal: () => false };
}

Deno.test("headlessTask() reads the task from stdin for -p -, and attaches piped input to -p TASK", async () => {
  assertEquals(await headlessTask("-", stdinOf("  fix the build\n")), { task: "fix the build" });
  assertEquals(
    await headlessTask("why does this fail?", stdinOf("error: x\n")),
    { task: "why does this fail?\n\nInput piped to tern:\n<stdin>\nerror: x\n</stdin>" },
  );
  assertEquals(await headlessTask("task", stdinOf("ignored", true)), { task: "task" });
  assertEquals(await headlessTask("task", stdinOf("")), { task: "task" });
  const { task: long } = await headlessTask("t", stdinOf("a".repeat(MAX_STDIN_CHARS) + "END"));
  assertEquals(
    long.includes(`the last ${MAX_STDIN_CHARS} characters`) && long.includes("END\n</stdin>"),
    true,
  );
});

Deno.test("headlessTask() gives up on a stdin that stays open and silent, with a note", async () => {
  assertEquals(await headlessTask("task", silentStdin(), 50), {
    task: "task",
    note: "no input arrived on stdin within 0.05 s; running without it",
  });
});

Deno.test("tern -p - takes the task from stdin; piped input reaches the model with -p TASK", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "one" }, { text: "two" }]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "m" };
  const first = await runTern({ cwd: project.root, args: ["-p", "-"], env, input: "task from stdin\n" });
  assertEquals([first.code, first.stdout.trim()], [0, "one"]);
  const second = await runTern({ cwd: project.root, args: ["-p", "explain"], env, input: "log line\n" });
  assertEquals([second.code, second.stdout.trim()], [0, "two"]);
  const users = model.requests.map((request) =>
    (request.messages as { role: string; content: string }[]).find((message) => message.role === "user")!
      .content
  );
  assertEquals(users, ["task from stdin", "explain\n\nInput piped to tern:\n<stdin>\nlog line\n</stdin>"]);
});

Deno.test("a refused write is listed in --output json as a permission denial and told in full on stderr", async () => {
  await using project = await tempProject({ "a.txt": "old\n" });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "b.txt", content: "new\n" }) }] },
    { text: "Could not write." },
  ]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "m" };
  const run = await runTern({ cwd: project.root, args: ["-p", "write it", "--output", "json"], env });
  assertEquals(run.code, 3, run.stderr); // finished without the refused write
  const result = JSON.parse(run.stdout);
  assertEquals(result.permission_denials.length, 1);
  assertEquals(result.permission_denials[0].tool_name, "write_file");
  assertEquals(result.permission_denials[0].reason.includes("--approve edits"), true);
  assertEquals(
    run.stderr.includes("rerunning tern with --approve edits, or by running tern on a terminal"),
    true,
    run.stderr,
  );
});
