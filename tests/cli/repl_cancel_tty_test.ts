/**
 * Cancelling a turn on a real terminal (issue 4): Esc or Ctrl-C during a streaming answer, a long command
 * and parallel reads. The REPL runs under tmux against the fake model, which answers 400 to any request
 * whose tool calls lack results: the next prompt's answer showing up proves the history stayed valid.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { eventually, processesWith, sleepMarker } from "../support/processes.ts";
import { type TempProject, tempProject } from "../support/temp_project.ts";
import { startTmux, type TmuxSession } from "../support/tmux.ts";
import { testNeeding } from "../support/requires.ts";

/** The prompt the REPL shows when it waits for the next task. */
const PROMPT = "›";

/** Starts the REPL in `project` against `model` with extra flags, and waits for its first prompt. */
async function startRepl(project: TempProject, model: FakeModel, flags: string[] = []): Promise<TmuxSession> {
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  const tern = await startTmux(
    `cd ${project.root} && env ${env} ${await ternCommandLine()} ${flags.join(" ")}`,
  );
  await tern.waitFor(PROMPT);
  return tern;
}

/** Types a task once the REPL shows its `n`-th prompt (keys typed during a turn are dropped on purpose). */
async function typeTask(tern: TmuxSession, task: string, n: number): Promise<void> {
  await tern.waitFor(PROMPT, { count: n });
  await tern.send(task, "Enter");
}

/** The tool messages of a request the fake model received. */
function toolMessages(model: FakeModel, index: number): { content: string }[] {
  const messages = model.requests[index].messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "tool");
}

/** A long answer streamed slowly: about 25 s unless cancelled. Its first paragraph shows at once (markdown
 * prints a block when the next begins). */
const SLOW_ANSWER: ScriptedTurn = {
  text: `Streaming\n\n${"and streaming ".repeat(80)}done.`,
  chunkSize: 4,
  chunkDelayMs: 100,
};

testNeeding(
  ["tmux"],
  "Esc during a streaming answer cancels it, and the next prompt gets an answer",
  async () => {
    await using project = await tempProject();
    await using model = startFakeModel([SLOW_ANSWER, { text: "Second answer." }]);
    await using tern = await startRepl(project, model);
    await typeTask(tern, "tell me a long story", 1);
    await tern.waitFor("Streaming");
    await tern.send("Escape");
    await tern.waitFor("Cancelled");
    await typeTask(tern, "and now a short one", 2);
    const screen = await tern.waitFor("Second answer.");
    assert(!screen.includes("done."), "the cancelled answer stopped streaming");
    assert(!screen.includes("error"), screen);
    assertEquals(model.requests.length, 2);
    const messages = model.requests[1].messages as { role: string; content: string }[];
    assertEquals(messages.at(-1), { role: "user", content: "and now a short one" });
  },
);

testNeeding(
  ["tmux"],
  "Esc during a long command kills its process group, sandboxed or not, and the next prompt works",
  async () => {
    for (const sandbox of ["auto", "off"]) {
      await using project = await tempProject();
      const [first, second] = [sleepMarker(31), sleepMarker(41)];
      const command = `sleep ${first} & sleep ${second}`;
      await using model = startFakeModel([
        {
          toolCalls: [{
            name: "execute_command",
            arguments: JSON.stringify({ command, timeout_ms: 600_000 }),
          }],
        },
        { text: "Ready again." },
      ]);
      await using tern = await startRepl(project, model, ["--approve", "all", "--sandbox", sandbox]);
      await typeTask(tern, "run the sleeps", 1);
      const started = () => Promise.all([first, second].map(processesWith));
      assert(await eventually(async () => (await started()).every((found) => found.length > 0)), sandbox);
      await tern.send("Escape");
      await tern.waitFor("Cancelled");
      const gone = await eventually(async () => (await started()).every((found) => found.length === 0));
      assert(gone, `${sandbox}: still running:\n${(await started()).flat().join("\n")}`);
      await typeTask(tern, "are you there?", 2);
      await tern.waitFor("Ready again.");
      const [result] = toolMessages(model, 1);
      assertStringIncludes(result.content, "cancelled by the user");
    }
  },
);

/** A 7 MB text of non-ASCII words: slow for ripgrep under a pattern of Unicode word boundaries. */
function wordySlab(): string {
  const words = ["héllo", "wörld", "ñandú", "café", "straße", "δοκιμή", "тест"];
  const line = Array.from({ length: 10 }, (_, i) => words[(i * 3) % words.length]).join(" ");
  return `${line}\n`.repeat(90_000);
}

testNeeding(
  ["tmux", "rg"],
  "Esc during parallel reads abandons them, stops the search, and the next prompt works",
  async () => {
    const folder = `slabs-${crypto.getRandomValues(new Uint32Array(1))[0]}`;
    await using project = await tempProject({
      "notes.txt": "a note\n",
      [`${folder}/slab-00.txt`]: wordySlab(),
    });
    // Hard links cost no disk yet ripgrep searches each: about a second apiece, far longer than the test.
    for (let i = 1; i < 20; i++) {
      await Deno.link(`${project.root}/${folder}/slab-00.txt`, `${project.root}/${folder}/slab-${i}.txt`);
    }
    const search = { pattern: "\\b(\\w+\\s){200}\\b", path: folder };
    await using model = startFakeModel([
      {
        toolCalls: [
          { name: "read_file", arguments: '{"path":"notes.txt"}' },
          { name: "list_dir", arguments: "{}" },
          { name: "grep_code", arguments: JSON.stringify(search) },
          { name: "glob_files", arguments: '{"pattern":"**/*.md"}' },
        ],
      },
      { text: "Reads are over." },
    ]);
    await using tern = await startRepl(project, model);
    await typeTask(tern, "look around", 1);
    // ripgrep's arguments name the folder: while it is listed, the search is running.
    assert(await eventually(async () => (await processesWith(folder)).length > 0), "the search started");
    await tern.send("Escape");
    await tern.waitFor("Cancelled");
    assert(
      await eventually(async () => (await processesWith(folder)).length === 0),
      "the search was stopped",
    );
    await typeTask(tern, "what did you find?", 2);
    await tern.waitFor("Reads are over.");
    const results = toolMessages(model, 1);
    assertEquals(results.length, 4);
    assertStringIncludes(results[0].content, "a note");
    assertStringIncludes(results[2].content, "cancelled by the user");
  },
);

testNeeding(
  ["tmux"],
  "Ctrl-C during a turn cancels it like Esc, twice in a row, without leaving the REPL",
  async () => {
    await using project = await tempProject();
    await using model = startFakeModel([SLOW_ANSWER, { delayMs: 60_000, text: "never sent" }, {
      text: "Third answer.",
    }]);
    await using tern = await startRepl(project, model);
    await typeTask(tern, "tell me a long story", 1);
    await tern.waitFor("Streaming");
    await tern.send("C-c");
    await tern.waitFor("Cancelled");
    // The second task waits for a response that is slow to start: Ctrl-C cancels the pending request too.
    await typeTask(tern, "think about it", 2);
    assert(
      await eventually(() => Promise.resolve(model.requests.length === 2)),
      "the second request was sent",
    );
    await tern.send("C-c");
    await tern.waitFor("Cancelled", { count: 2 });
    await typeTask(tern, "one more", 3);
    const screen = await tern.waitFor("Third answer.");
    assert(!screen.includes("press Ctrl-C again"), screen);
    assert(!screen.includes("never sent"), screen);
  },
);
