import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { runTern } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("the REPL answers each line, keeps the conversation, and /clear starts a new one", async () => {
  await using project = await tempProject();
  const root = project.root;
  await using model = await startFakeModel([{ text: "First answer." }, { text: "Second answer." }, {
    text: "Third answer.",
  }]);
  const run = await runTern({
    cwd: root,
    args: [],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: "first task\nsecond task\n/clear\nthird task\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "fake-model");
  assertStringIncludes(run.stdout, `project root: ${root}`);
  for (const answer of ["First answer.", "Second answer.", "Third answer."]) {
    assertStringIncludes(run.stdout, answer);
  }
  const userTurns = (i: number) =>
    (model.requests[i].messages as { role: string }[]).filter((message) => message.role === "user").length;
  assertEquals([userTurns(0), userTurns(1), userTurns(2)], [1, 2, 1]);
});

Deno.test("the REPL explains an unknown slash command and exits at end of input", async () => {
  await using project = await tempProject();
  const root = project.root;
  const run = await runTern({
    cwd: root,
    args: [],
    env: { TERN_BASE_URL: "http://127.0.0.1:9/v1", TERN_API_KEY: "k" },
    input: "/frob\n/help\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "Unknown command /frob");
  assertStringIncludes(run.stdout, "/clear");
});

/** Tool calls that each hit a bad input: links out, special files, bad paths, a binary, a loop. */
function hostileCalls(): { name: string; arguments: string }[] {
  const calls: [string, Record<string, unknown>][] = [
    ["read_file", { path: "passwd" }],
    ["read_file", { path: "fifo" }],
    ["grep_code", { pattern: "root", path: "fifo" }],
    ["read_file", { path: "a\0b" }],
    ["read_file", { path: "tool.bin" }],
    ["read_file", { path: "x".repeat(5000) }],
    ["read_file", { path: "loop" }],
    ["list_dir", { path: "out" }],
    ["read_file", { path: "out/secret.txt" }],
    ["grep_code", { pattern: "root|secret" }],
    ["write_file", { path: "out/planted.txt", content: "x" }],
  ];
  return calls.map(([name, args]) => ({ name, arguments: JSON.stringify(args) }));
}

Deno.test("the REPL survives tool calls that hit bad inputs in a row, reads nothing outside, and answers the next prompt", async () => {
  await using project = await tempProject();
  await using outside = await tempProject({ "secret.txt": "outside secret\n" });
  const root = project.root;
  await Deno.symlink("/etc/passwd", `${root}/passwd`);
  await Deno.symlink(outside.root, `${root}/out`);
  await Deno.symlink("loop", `${root}/loop`);
  await Deno.copyFile("/bin/true", `${root}/tool.bin`);
  assert((await new Deno.Command("mkfifo", { args: [`${root}/fifo`] }).output()).success);
  const calls = hostileCalls();
  await using model = await startFakeModel([
    { toolCalls: calls },
    { text: "Survived the bad inputs." },
    { text: "Still answering." },
  ]);
  const run = await runTern({
    cwd: root,
    args: ["--approve", "all"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: "poke at everything\nare you still there?\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "Survived the bad inputs.");
  assertStringIncludes(run.stdout, "Still answering.");
  assertEquals(model.requests.length, 3);
  const sent = JSON.stringify(model.requests);
  for (const leaked of ["root:x:0:0", "outside secret", outside.root]) assert(!sent.includes(leaked), leaked);
  const results = (model.requests[1].messages as { role: string; content: string }[])
    .filter((message) => message.role === "tool");
  assertEquals(results.length, calls.length);
  const said = results.map((result) => result.content.replace(/^<tool_result[^>]*>/, "").split("\n")[0]);
  const expected = [
    /^"passwd" is outside the project root/,
    /^"fifo" is not a regular file \(it is a FIFO/,
    /^"fifo" is not a regular file \(it is a FIFO/,
    /^read_file: field "path" holds a NUL byte/,
    /^"tool.bin": binary file/,
    /^path is 5000 characters long/,
    /^"loop": too many levels of symbolic links/,
    /^"out" is outside the project root/,
    /^"out\/secret.txt" is outside the project root/,
    /^No matches for "root\|secret"/,
    /^"out\/planted.txt" is outside the project root/,
  ];
  said.forEach((line, i) => assertMatch(line, expected[i]));
  assertEquals([...Deno.readDirSync(outside.root)].map((entry) => entry.name), ["secret.txt"]);
});

Deno.test('tern "TASK" opens the REPL with TASK as its first message, then reads the next lines', async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "First answer." }, { text: "Second answer." }]);
  const run = await runTern({
    cwd: project.root,
    args: ["explain this repository"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: "and then?\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "ask › explain this repository");
  assertStringIncludes(run.stdout, "First answer.");
  assertStringIncludes(run.stdout, "Second answer.");
  const users = (i: number) =>
    (model.requests[i].messages as { role: string; content: string }[]).filter((m) => m.role === "user");
  assertEquals(users(0).map((m) => m.content), ["explain this repository"]);
  assertEquals(users(1).length, 2);
});

Deno.test("!COMMAND in the REPL runs it in the project, prints its output, and puts both into the conversation", async () => {
  await using project = await tempProject({ "notes.txt": "alpha\nbeta\n" });
  await using model = await startFakeModel([{ text: "I see two lines." }]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
    input: "!wc -l < notes.txt; echo made > made.txt\nwhat did it say?\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "\n2\n(the command and its output are in the conversation");
  assertEquals(await Deno.readTextFile(`${project.root}/made.txt`), "made\n");
  assertEquals(model.requests.length, 1, "the command itself sent nothing to the model");
  const users = (model.requests[0].messages as { role: string; content: string }[])
    .filter((message) => message.role === "user").map((message) => message.content);
  assertEquals(users.length, 2);
  assertStringIncludes(users[0], "$ wc -l < notes.txt; echo made > made.txt");
  assertStringIncludes(users[0], "<command_output>");
  assertEquals(users[1], "what did it say?");
});
