import { assert, assertEquals, assertMatch, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { runTern, ternRunArgs } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";
import { testNeeding } from "./support/requires.ts";

const HELLO_SCRIPT: ScriptedTurn[] = [
  {
    reasoning: "Let me look at the file first.",
    toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }],
  },
  {
    text: "Changing the greeting.",
    toolCalls: [{
      name: "edit_file",
      arguments: '{"path":"hello.txt","old_text":"Hello World","new_text":"Hello Agent"}',
    }],
  },
  { toolCalls: [{ name: "execute_command", arguments: '{"command":"cat hello.txt"}' }] },
  { text: "hello.txt now says Hello Agent.", usage: { prompt_tokens: 50, completion_tokens: 8 } },
];

function helloProject() {
  return tempProject({ "hello.txt": "Hello World\n" });
}

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

Deno.test("tern -p reads, edits, runs a command and answers, under the narrowed flags", async () => {
  await using project = await helloProject();
  const root = project.root;
  await using model = await startFakeModel(HELLO_SCRIPT);
  const run = await runTern({
    cwd: root,
    args: ["-p", "change the greeting", "--approve", "all"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "hello.txt now says Hello Agent.\n");
  assertEquals(await Deno.readTextFile(`${root}/hello.txt`), "Hello Agent\n");
  assertStringIncludes(run.stderr, "execute_command");
  assertEquals(model.requests.length, 4);
  const last = model.requests[3].messages as { role: string; content: string }[];
  const commandResult = last.at(-1)!;
  assertEquals(commandResult.role, "tool");
  assertMatch(commandResult.content, /^<tool_result>/);
  assertStringIncludes(commandResult.content, "Hello Agent");
});

Deno.test("tern -p --output json prints one result object", async () => {
  await using project = await helloProject();
  const root = project.root;
  await using model = await startFakeModel(HELLO_SCRIPT);
  const run = await runTern({
    cwd: root,
    args: ["-p", "change the greeting", "--approve", "all", "--output", "json"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assertEquals(result.result, "hello.txt now says Hello Agent.");
  assertEquals(result.exit_reason, "done");
  assertEquals(result.turns, 4);
  assertEquals(result.tool_calls, 3);
  assert(result.usage.prompt_tokens >= 50);
});

Deno.test("tern -p with the default ask policy and no terminal refuses the edit and says how to allow it", async () => {
  await using project = await helloProject();
  const root = project.root;
  const script = [HELLO_SCRIPT[0], HELLO_SCRIPT[1], { text: "I could not edit the file." }];
  await using model = await startFakeModel(script);
  const run = await runTern({ cwd: root, args: ["-p", "change the greeting"], env: modelEnv(model.url) });
  assertEquals(run.code, 3, run.stderr); // finished, but without the refused edit
  assertStringIncludes(run.stderr, "1 call was refused: edit_file hello.txt; rerun with --approve edits");
  assertEquals(await Deno.readTextFile(`${root}/hello.txt`), "Hello World\n");
  const messages = model.requests[2].messages as { role: string; content: string }[];
  assertStringIncludes(messages.at(-1)!.content, "--approve");
});

Deno.test("tern -p --output stream-json prints one event per line, from init to result", async () => {
  await using project = await helloProject();
  const root = project.root;
  await using model = await startFakeModel([{ reasoning: "hm", text: "Hi there." }]);
  const run = await runTern({
    cwd: root,
    args: ["-p", "hi", "--output", "stream-json"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assertEquals(events[0].type, "init");
  const { type, text, exit_reason, partial, v } = events.at(-1);
  assertEquals({ type, text, exit_reason, partial, v }, {
    type: "result",
    text: "Hi there.",
    exit_reason: "done",
    partial: false,
    v: 1,
  });
  assert(events.some((event) => event.type === "reasoning_delta"));
});

Deno.test("tern -p --output stream-json shows a running command's last lines as tool_update events", async () => {
  await using project = await helloProject();
  const command = "for i in 1 2 3; do echo line$i; sleep 0.3; done";
  await using model = await startFakeModel([
    { toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command }) }] },
    { text: "Counted." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "count", "--output", "stream-json", "--approve", "all"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const call = events.find((event) => event.type === "tool_call");
  const result = events.findIndex((event) => event.type === "tool_result");
  const updates = events.filter((event) => event.type === "tool_update");
  assert(updates.length >= 1, run.stdout);
  // Every update belongs to the call and comes before its result; one shows a line printed before the last.
  assert(updates.every((update) => events.indexOf(update) < result), run.stdout);
  assertEquals(updates[0].id, call.id);
  assertEquals(updates[0].name, "execute_command");
  assert(updates.some((update) => update.tail.includes("line1")), run.stdout);
  assert(
    updates.every((update) => update.tail.every((line: string) => /^line[123]$/.test(line))),
    run.stdout,
  );
  assertEquals(events[result].content, "line1\nline2\nline3");
});

Deno.test("tern -p without a key or local server prints one line naming the variable and exits 2", async () => {
  await using project = await helloProject();
  const root = project.root;
  const run = await runTern({ cwd: root, args: ["-p", "hi"] });
  assertEquals(run.code, 2);
  assertStringIncludes(run.stderr, "DEEPSEEK_API_KEY");
  assertStringIncludes(run.stderr, ".env");
  assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
});

Deno.test("tern with an unknown flag exits 2 with a usage line", async () => {
  await using project = await helloProject();
  const root = project.root;
  const run = await runTern({ cwd: root, args: ["--frobnicate"] });
  assertEquals(run.code, 2);
  assertStringIncludes(run.stderr, "--frobnicate");
  assert(!run.stderr.includes("    at "), "no stack trace");
});

Deno.test("tern -p exits 1 with the provider's message on HTTP 401", async () => {
  await using project = await helloProject();
  const root = project.root;
  await using model = await startFakeModel([{
    status: 401,
    errorBody: '{"error":{"message":"Invalid API key"}}',
  }]);
  const run = await runTern({ cwd: root, args: ["-p", "hi"], env: modelEnv(model.url) });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "Invalid API key");
  assert(!run.stderr.includes("    at "), "no stack trace");
});

Deno.test("tern -p stops a model repeating one call at the fifth, labels the answer partial and exits 3", async () => {
  await using project = await helloProject();
  const root = project.root;
  const read = { toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }] };
  await using model = startFakeModel((body) => body.tools ? read : { text: "Not done: I kept reading." });
  const json = await runTern({ cwd: root, args: ["-p", "hi", "--output", "json"], env: modelEnv(model.url) });
  assertEquals(json.code, 3, json.stderr);
  const result = JSON.parse(json.stdout);
  assertEquals([result.exit_reason, result.partial, result.result], [
    "runaway",
    true,
    "Not done: I kept reading.",
  ]);
  assertEquals([result.turns, result.tool_calls], [5, 5]); // the report after the stop is not a turn
  const text = await runTern({ cwd: root, args: ["-p", "hi"], env: modelEnv(model.url) });
  assertEquals([text.code, text.stdout], [3, "Not done: I kept reading.\n"], text.stderr);
  assertStringIncludes(text.stderr, "⚠ partial: the model kept repeating itself");
});

Deno.test("tern -p --sandbox required without bubblewrap ends the task with exit 1 and one line, not a loop", async () => {
  await using project = await helloProject();
  const root = project.root;
  await using model = await startFakeModel([
    { toolCalls: [{ name: "execute_command", arguments: '{"command":"touch ran"}' }] },
    { text: "must not be asked" },
  ]);
  // No bwrap on this PATH: the sandbox cannot start, so no command may run.
  const env = { ...modelEnv(model.url), PATH: "/nonexistent" };
  const run = await runTern({
    cwd: root,
    args: ["-p", "run it", "--sandbox", "required", "--output", "json"],
    env,
  });
  assertEquals(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout);
  assertEquals(result.exit_reason, "error");
  assertStringIncludes(result.error, "--sandbox required");
  assertEquals(model.requests.length, 1);
  assertEquals(await Deno.lstat(`${root}/ran`).then(() => true, () => false), false);
  assert(!run.stderr.includes("    at "), "no stack without TERN_DEBUG");
});

Deno.test("tern -p says on stderr, in one line, that the sandbox cannot start (the banner's line)", async () => {
  await using project = await helloProject();
  await using model = await startFakeModel([{ text: "Hi." }, { text: "Hi." }]);
  // No bwrap on this PATH: under --sandbox auto commands would run unconfined, and headless says so.
  const env = { ...modelEnv(model.url), PATH: "/nonexistent" };
  const run = await runTern({ cwd: project.root, args: ["-p", "hi"], env });
  assertEquals([run.code, run.stdout], [0, "Hi.\n"], run.stderr);
  const lines = run.stderr.split("\n").filter((line) => line.includes("sandbox"));
  assertEquals(lines.length, 1, run.stderr);
  assertMatch(lines[0], /^tern: sandbox: unavailable \(.+\) — commands run unconfined and always ask$/);
  const off = await runTern({ cwd: project.root, args: ["-p", "hi", "--sandbox", "off"], env });
  assertEquals([off.code, off.stderr.includes("sandbox")], [0, false], off.stderr);
});

Deno.test("tern -p never sends the user's key to a base URL a cloned project's .env chose, unless trusted", async () => {
  await using project = await helloProject();
  const root = project.root;
  await using model = await startFakeModel([{ text: "Hi." }]);
  await Deno.writeTextFile(`${root}/.env`, `TERN_BASE_URL=${model.url}\n`);
  const env = { DEEPSEEK_API_KEY: "sk-user-secret", TERN_MODEL: "fake-model" };
  const refused = await runTern({ cwd: root, args: ["-p", "hi"], env });
  assertEquals(refused.code, 2);
  assertStringIncludes(refused.stderr, "--trust-project-env");
  assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assertEquals(model.requests.length, 0, "nothing was sent");
  const trusted = await runTern({ cwd: root, args: ["-p", "hi", "--trust-project-env"], env });
  assertEquals([trusted.code, trusted.stdout], [0, "Hi.\n"], trusted.stderr);
});

testNeeding(
  ["git"],
  "tern -p asks before git clean -fdx even sandboxed: refused headless under ask, run under --approve all",
  async () => {
    await using project = await helloProject();
    const root = project.root;
    await Deno.writeTextFile(`${root}/untracked.txt`, "work in progress\n");
    const script = [
      {
        toolCalls: [{ name: "execute_command", arguments: '{"command":"git init -q . && git clean -fdx"}' }],
      },
      { text: "Done." },
    ];
    await using refusing = await startFakeModel(script);
    const refused = await runTern({ cwd: root, args: ["-p", "clean up"], env: modelEnv(refusing.url) });
    assertEquals(refused.code, 3, refused.stderr);
    assertStringIncludes(refused.stderr, "rerun with --approve all");
    assertEquals(await Deno.readTextFile(`${root}/untracked.txt`), "work in progress\n");
    const sent = refusing.requests[1].messages as { role: string; content: string }[];
    assertStringIncludes(sent.at(-1)!.content, "git clean -f deletes untracked files");
    assertStringIncludes(sent.at(-1)!.content, "--approve all");
    await using running = await startFakeModel(script);
    const ran = await runTern({
      cwd: root,
      args: ["-p", "clean up", "--approve", "all"],
      env: modelEnv(running.url),
    });
    assertEquals(ran.code, 0, ran.stderr);
    assertEquals(await Deno.lstat(`${root}/untracked.txt`).then(() => true, () => false), false);
  },
);

Deno.test("without rg on PATH tern says nothing about it and grep_code uses the built-in search", async () => {
  await using project = await tempProject({ "notes.txt": "alpha\nneedle here\n" });
  // A PATH with bash and nothing else: no rg, no bwrap, no git.
  const bin = `${project.root}/../bin`;
  await Deno.mkdir(bin);
  await Deno.symlink(await Deno.realPath("/bin/bash"), `${bin}/bash`);
  await using model = startFakeModel([
    { toolCalls: [{ name: "grep_code", arguments: '{"pattern":"needle"}' }] },
    { text: "Found it." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "find the needle", "--sandbox", "off"],
    env: { PATH: bin, TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "Found it.\n");
  assert(!run.stderr.includes("Failed to resolve"), run.stderr);
  const sent = JSON.stringify(model.requests[1]);
  assert(sent.includes("notes.txt:2: needle here") || sent.includes("notes.txt:2:needle here"), sent);
});

Deno.test("tern -p: a NUL byte in a command is a tool error the model acts on, not a bug in tern", async () => {
  await using project = await helloProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command: "echo a\0b" }) }] },
    { toolCalls: [{ name: "grep_code", arguments: JSON.stringify({ pattern: "x\0" }) }] },
    { text: "Fixed my call." },
  ]);
  const run = await runTern({ cwd: project.root, args: ["-p", "go"], env: modelEnv(model.url) });
  assertEquals([run.code, run.stdout], [0, "Fixed my call.\n"], run.stderr);
  const result = (model.requests[1].messages as { content: string }[]).at(-1)!.content;
  assertStringIncludes(result, 'field "command" holds a NUL byte');
});

Deno.test("the REPL refuses a pasted prompt over 1 MB in one line, sends nothing, and goes on", async () => {
  await using project = await helloProject();
  await using model = await startFakeModel([{ text: "Small one answered." }]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: modelEnv(model.url),
    input: `${"x".repeat(1_600_000)}\nsmall one\n/exit\n`,
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "error: the prompt is 1.5 MB, over the 1 MB cap: save the text in a file");
  assertStringIncludes(run.stdout, "Small one answered.");
  assertEquals(model.requests.length, 1);
});

/**
 * `tern -p go --approve all` in a session of its own, so its process group is its pid: whatever it starts
 * stays in that group.
 */
async function ternInOwnGroup(root: string, url: string): Promise<Deno.ChildProcess> {
  return new Deno.Command("setsid", {
    args: [Deno.execPath(), ...await ternRunArgs(), "-p", "go", "--approve", "all"],
    cwd: root,
    env: { ...modelEnv(url), NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** The processes of group `pgid` now, one `ps` line each (pid, state, command line). */
async function inGroup(pgid: number): Promise<string[]> {
  const ps = await new Deno.Command("ps", { args: ["-eo", "pgid=,pid=,stat=,args="] }).output();
  return new TextDecoder().decode(ps.stdout).split("\n")
    .filter((line) => line.trim().split(/\s+/)[0] === String(pgid));
}

Deno.test("tern -p starts its file helper with the session, before the first model call, and ends it at exit", async () => {
  await using project = await tempProject({ "notes.txt": "a note\n" });
  // The first answer comes late: time to look at what tern is running while it waits for it.
  await using model = await startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"notes.txt"}' }], delayMs: 1_500 },
    { text: "Read it." },
  ]);
  const tern = await ternInOwnGroup(project.root, model.url);
  const helpers = async () => (await inGroup(tern.pid)).filter((line) => /\bperl -e\b/.test(line));
  while (model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const waiting = await helpers();
  const { code, stdout, stderr } = await tern.output();
  assertEquals([code, new TextDecoder().decode(stdout)], [0, "Read it.\n"], new TextDecoder().decode(stderr));
  assertEquals(waiting.length, 1, "one file helper running while the first request waits");
  assertEquals(await helpers(), [], "the helper ended with tern");
});

Deno.test("tern -p leaves nothing of its own in its process group: no command, no file helper, no zombie", async () => {
  await using project = await tempProject({ "notes.txt": "a note\n" });
  const call = (name: string, args: unknown): ScriptedTurn => ({
    toolCalls: [{ name, arguments: JSON.stringify(args) }],
  });
  await using model = await startFakeModel([
    call("execute_command", { command: "echo sandboxed" }),
    call("read_file", { path: "notes.txt" }),
    call("edit_file", { path: "notes.txt", old_text: "a note", new_text: "a longer note" }),
    { text: "Done." },
  ]);
  const tern = await ternInOwnGroup(project.root, model.url);
  const { code, stdout, stderr } = await tern.output();
  assertEquals([code, new TextDecoder().decode(stdout)], [0, "Done.\n"], new TextDecoder().decode(stderr));
  assertEquals(await Deno.readTextFile(`${project.root}/notes.txt`), "a longer note\n");
  assertEquals(await inGroup(tern.pid), [], "processes left in tern's group");
});
