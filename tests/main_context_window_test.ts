/**
 * Every request fits the model's context window (issue 22), end to end: the real CLI, a fake model on each
 * wire recording the bodies it was sent, runs continued with -c, a huge tool result, a switch to a smaller
 * window. A body's size is measured in bytes as sent; the window holds about four bytes a token.
 */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type FakeModel, type ScriptedTurn, startFakeModel, type Wire } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

const WIRES = ["chat", "anthropic", "responses"] as const;

/** The bytes of a request body as it went over the wire. */
function bodyBytes(body: Record<string, unknown>): number {
  return new TextEncoder().encode(JSON.stringify(body)).length;
}

/** Whether a request is tern's summary call (its instructions open the system prompt on every wire). */
function isSummary(body: Record<string, unknown>): boolean {
  return JSON.stringify(body).includes("You summarise a coding agent's conversation");
}

/** Whether the request's last item is a tool result, whatever the wire. */
function endsWithToolResult(body: Record<string, unknown>, wire: Wire): boolean {
  if (wire === "chat") return (body.messages as { role: string }[]).at(-1)?.role === "tool";
  if (wire === "responses") {
    return (body.input as { type?: string }[]).at(-1)?.type === "function_call_output";
  }
  const last = (body.messages as { content: unknown }[]).at(-1)?.content;
  return Array.isArray(last) && last.some((block) => block.type === "tool_result");
}

function env(api: string, model: FakeModel): Record<string, string> {
  return {
    TERN_BASE_URL: api === "anthropic" ? model.root : model.url,
    TERN_API_KEY: "k",
    TERN_MODEL: "fake-model",
  };
}

/** About `bytes` of prose, in lines. */
function prose(label: string, bytes: number): string {
  const line = `${label}: the quick brown fox jumps over the lazy dog, line after line of notes.\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

for (const api of WIRES) {
  Deno.test(`six runs continued with -c in a 4000-token window (${api} wire): every request fits, one is a summary`, async () => {
    await using project = await tempProject({ "notes.md": prose("notes", 1_900) });
    let answers = 0;
    const script = (body: Record<string, unknown>, index: number): ScriptedTurn => {
      if (isSummary(body)) return { text: "## Goal\nAnswer questions about notes.md.\n## Open tasks\nnone" };
      if (!endsWithToolResult(body, model.wires[index])) {
        return { toolCalls: [{ name: "read_file", arguments: '{"path":"notes.md"}' }] };
      }
      return { text: prose(`answer ${++answers}`, 1_600) };
    };
    await using model = startFakeModel(script);
    for (let run = 1; run <= 6; run++) {
      const args = [...(run > 1 ? ["-c"] : []), "-p", `question ${run} about notes.md`];
      const result = await runTern({
        cwd: project.root,
        args: [...args, "--context-window", "4000", "--api", api],
        env: env(api, model),
      });
      assertEquals(result.code, 0, result.stderr);
      assertStringIncludes(result.stdout, `answer ${run}:`);
    }
    const sizes = model.requests.map(bodyBytes);
    assert(sizes.every((bytes) => bytes <= 4000 * 4), `request sizes: ${sizes.join(", ")}`);
    assert(model.requests.some(isSummary), "a summary request was made");
    assertEquals(model.wires.every((wire) => wire === api), true);
  });
}

for (const api of WIRES) {
  Deno.test(`a 200 KB file read into a 4000-token window (${api} wire) is cut with a note naming where the rest is`, async () => {
    const big = prose("row", 200_000);
    await using project = await tempProject({ "big.log": big });
    const script = (body: Record<string, unknown>, index: number): ScriptedTurn =>
      endsWithToolResult(body, model.wires[index])
        ? { text: "The log repeats one row." }
        : { toolCalls: [{ name: "read_file", arguments: '{"path":"big.log"}' }] };
    await using model = startFakeModel(script);
    const run = await runTern({
      cwd: project.root,
      args: ["-p", "what is in big.log?", "--context-window", "4000", "--api", api],
      env: env(api, model),
    });
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "The log repeats one row.\n");
    assertStringIncludes(run.stderr, "Context: cut the output of read_file to fit the context window");
    const sizes = model.requests.map(bodyBytes);
    assertEquals(sizes.length, 2);
    assert(sizes.every((bytes) => bytes <= 4000 * 4), `request sizes: ${sizes.join(", ")}`);
    const sent = JSON.stringify(model.requests[1]);
    const saved = sent.match(/the whole output is in (\.tern\/tool-outputs\/[\w.-]+\.txt): read it/)?.[1];
    assert(saved, "the note names the file holding the rest");
    const lines = Number(sent.match(/cut to fit the context window: (\d+) line\(s\)/)?.[1]);
    assertStringIncludes(sent, `${saved}: read it with read_file from offset ${lines + 1}`);
    // The file holds what the tool returned (the numbered page), whole: the model can read on from the cut.
    const whole = await Deno.readTextFile(`${project.root}/${saved}`);
    assertStringIncludes(whole, "     1\trow: the quick brown fox");
    assert(whole.length > 20_000, `${whole.length} characters saved`);
  });
}

/** A fake model that answers each prompt with `bytes` of prose and each summary request with a short one. */
function chattyModel(bytes: number): FakeModel {
  let answers = 0;
  return startFakeModel((body) =>
    isSummary(body)
      ? { text: "## Goal\nLong answers to numbered questions.\n## Open tasks\nnone" }
      : { text: prose(`answer ${++answers}`, bytes) }
  );
}

/** Runs `tern -p` `runs` times on one session, with the model's window, and returns the session id. */
async function longSession(root: string, model: FakeModel, runs: number): Promise<string> {
  let id = "";
  for (let run = 1; run <= runs; run++) {
    const result = await runTern({
      cwd: root,
      args: [...(run > 1 ? ["-c"] : []), "-p", `question ${run}`, "--output", "json"],
      env: env("chat", model),
    });
    assertEquals(result.code, 0, result.stderr);
    id = JSON.parse(result.stdout).session_id;
  }
  return id;
}

Deno.test("tern -r ID with a 4000-token window compacts a longer saved conversation before its first request", async () => {
  await using project = await tempProject({});
  await using model = chattyModel(4_000);
  const id = await longSession(project.root, model, 6);
  assert(bodyBytes(model.requests.at(-1)!) > 4000 * 4, "the saved conversation is larger than the window");
  const before = model.requests.length;
  const run = await runTern({
    cwd: project.root,
    args: ["-r", id, "-p", "question 7", "--context-window", "4000"],
    env: env("chat", model),
  });
  assertEquals(run.code, 0, run.stderr);
  assert(run.stdout.includes("answer 7:"), run.stderr);
  const after = model.requests.slice(before);
  assert(after.some(isSummary), "a summary request was made");
  const sizes = after.map(bodyBytes);
  assert(sizes.every((bytes) => bytes <= 4000 * 4), `request sizes: ${sizes.join(", ")}`);
});

Deno.test("/resume ID in the REPL with a 4000-token window compacts before the next request", async () => {
  await using project = await tempProject({});
  await using model = chattyModel(4_000);
  const id = await longSession(project.root, model, 6);
  const before = model.requests.length;
  const run = await runTern({
    cwd: project.root,
    args: ["--context-window", "4000"],
    env: env("chat", model),
    input: `/resume ${id}\nquestion 7\n/exit\n`,
  });
  assertEquals(run.code, 0, run.stderr);
  assert(run.stdout.includes("answer 7:"), run.stderr);
  const after = model.requests.slice(before);
  assert(after.some(isSummary), "a summary request was made");
  const sizes = after.map(bodyBytes);
  assert(sizes.every((bytes) => bytes <= 4000 * 4), `request sizes: ${sizes.join(", ")}`);
});

/** DeepSeek and Kimi presets both pointed at `model`, each with its key. */
function twoVendors(model: FakeModel): Record<string, string> {
  return {
    DEEPSEEK_BASE_URL: model.url,
    DEEPSEEK_API_KEY: "sk-deepseek",
    MOONSHOT_BASE_URL: model.url,
    MOONSHOT_API_KEY: "sk-moonshot",
  };
}

const SMALL = 8_192; // moonshot-v1-8k's window

Deno.test("/model to a model with a smaller window compacts the conversation before the next request", async () => {
  await using project = await tempProject({});
  await using model = chattyModel(12_000);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: twoVendors(model),
    input: "question 1\nquestion 2\nquestion 3\n/model kimi/moonshot-v1-8k\nquestion 4\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assert(run.stdout.includes("answer 4:"), run.stderr);
  const switched = model.requests.findIndex((body) => body.model === "moonshot-v1-8k");
  assert(switched > 0, "requests went to the smaller model");
  assert(bodyBytes(model.requests[switched - 1]) > 0.8 * SMALL * 4, "the last request before did not fit it");
  const after = model.requests.slice(switched);
  assert(after.some(isSummary), "a summary request was made");
  const sizes = after.map(bodyBytes);
  assert(sizes.every((bytes) => bytes <= SMALL * 4), `request sizes: ${sizes.join(", ")}`);
});

Deno.test("tern -c continuing a session that ended on a smaller model compacts for that model's window", async () => {
  await using project = await tempProject({});
  await using model = chattyModel(12_000);
  const first = await runTern({
    cwd: project.root,
    args: [],
    env: twoVendors(model),
    input: "question 1\nquestion 2\nquestion 3\n/model kimi/moonshot-v1-8k\n/exit\n",
  });
  assertEquals(first.code, 0, first.stderr);
  assertEquals(model.requests.every((body) => body.model === "deepseek-chat"), true);
  const before = model.requests.length;
  const run = await runTern({ cwd: project.root, args: ["-c", "-p", "question 4"], env: twoVendors(model) });
  assertEquals(run.code, 0, run.stderr);
  assert(run.stdout.includes("answer 4:"), run.stderr);
  const after = model.requests.slice(before);
  assertEquals(after.every((body) => body.model === "moonshot-v1-8k"), true);
  assert(after.some(isSummary), "a summary request was made");
  const sizes = after.map(bodyBytes);
  assert(sizes.every((bytes) => bytes <= SMALL * 4), `request sizes: ${sizes.join(", ")}`);
});

for (const api of WIRES) {
  Deno.test(`a message larger than the window (${api} wire) stops with exit 3 and one line; nothing is sent`, async () => {
    await using project = await tempProject({});
    await using model = startFakeModel([{ text: "never" }]);
    const run = await runTern({
      cwd: project.root,
      // --sandbox off: on a machine without bwrap, "auto" adds a line saying so.
      args: ["-p", prose("pasted", 20_000), "--context-window", "4000", "--api", api, "--sandbox", "off"],
      env: env(api, model),
    });
    assertEquals(run.code, 3);
    assertEquals(run.stdout, "");
    const lines = run.stderr.trimEnd().split("\n");
    assertEquals(lines.length, 1, run.stderr);
    assertStringIncludes(
      lines[0],
      "tern: the request does not fit the context window even after compaction: about ",
    );
    assertStringIncludes(lines[0], "fake-model's window holds 4,000 (system prompt and tools ");
    assertEquals(model.requests.length, 0);
  });
}

Deno.test("a window smaller than the system prompt and tools stops with exit 3 before any request", async () => {
  await using project = await tempProject({});
  await using model = startFakeModel([{ text: "never" }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "hi", "--context-window", "500", "--output", "json", "--sandbox", "off"],
    env: env("chat", model),
  });
  assertEquals(run.code, 3);
  const result = JSON.parse(run.stdout);
  assertEquals([result.exit_reason, result.partial, result.result], ["context_full", true, ""]);
  assertStringIncludes(result.error, "fake-model's window holds 500 (system prompt and tools ");
  assertEquals(run.stderr.trimEnd().split("\n").length, 1, run.stderr);
  assertEquals(model.requests.length, 0);
});

Deno.test("in the REPL a message too large for the window is not kept: the next one is answered", async () => {
  await using project = await tempProject({});
  await using model = startFakeModel([{ text: "Hello back." }]);
  const run = await runTern({
    cwd: project.root,
    args: ["--context-window", "4000"],
    env: env("chat", model),
    input: `${"pasted words ".repeat(2_000)}\nhello\n/exit\n`,
  });
  assertEquals(run.code, 0, run.stderr);
  assert(
    run.stdout.includes("; the message was not kept\n"),
    run.stdout.slice(run.stdout.lastIndexOf("error")),
  );
  assert(run.stdout.includes("Hello back."), "the next message is answered");
  assertEquals(model.requests.length, 1);
  assertEquals(JSON.stringify(model.requests[0]).includes("pasted words"), false);
});

Deno.test("/context shows the next request's size on the wire and what the next compaction would drop", async () => {
  await using project = await tempProject({ "notes.md": prose("notes", 1_900) });
  let answers = 0;
  const script = (body: Record<string, unknown>, index: number): ScriptedTurn =>
    endsWithToolResult(body, model.wires[index])
      ? { text: prose(`answer ${++answers}`, 1_000) }
      : { toolCalls: [{ name: "read_file", arguments: '{"path":"notes.md"}' }] };
  await using model = startFakeModel(script);
  const run = await runTern({
    cwd: project.root,
    args: ["--context-window", "4000"],
    env: env("chat", model),
    input: "question 1\nquestion 2\n/context\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  const shown = run.stdout.match(
    /Context window: 4,000 tokens\. Next request: about ([\d,]+) tokens \(([\d,]+) bytes on the chat wire/,
  );
  assert(shown, run.stdout.slice(run.stdout.indexOf("/context")));
  const [tokens, bytes] = [Number(shown[1].replaceAll(",", "")), Number(shown[2].replaceAll(",", ""))];
  // The last request sent, plus the answer it got, is what the next one starts from.
  const last = bodyBytes(model.requests.at(-1)!);
  assert(bytes > last + 1_000 && bytes < last + 1_300, `${bytes} bytes after a request of ${last}`);
  assertEquals(tokens, Math.ceil(bytes / 4));
  assertStringIncludes(
    run.stdout,
    "Compaction starts past 3,200 tokens (80 %): it would drop 2 old tool output(s)",
  );
  assertStringIncludes(run.stdout, "then if still needed summarise 4 older entries");
});
