/** Every recorded chat-completions stream in tests/fixtures assembles into the turn read off the file. */
import { assert, assertEquals, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { ChatCompletionsClient } from "../../src/llm/chat_completions.ts";
import { ChatAssembler } from "../../src/llm/_chat_assembler.ts";
import { type AssistantTurn, LlmError, type StreamEvent } from "../../src/llm/types.ts";
import { replayChunks, type ReplayOptions } from "../support/fake_model_server.ts";
import { type Expected, type Long, TABLE } from "./_chat_fixture_table.ts";

const DIR = new URL("../fixtures/streams/chat/", import.meta.url);

async function fixtureLines(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(file, DIR));
  return text.split("\n").filter((line) => line.trim() !== "");
}

/** Feeds the lines straight into the assembler, ending with [DONE] as a replay over HTTP would. */
function assemble(lines: string[], events: StreamEvent[]): AssistantTurn {
  const assembler = new ChatAssembler();
  for (const line of lines) events.push(...assembler.pushChunk(JSON.parse(line)));
  assembler.done();
  return assembler.finish();
}

async function overHttp(
  lines: string[],
  events: StreamEvent[],
  options: ReplayOptions,
): Promise<AssistantTurn> {
  await using model = replayChunks(lines, options);
  const client = new ChatCompletionsClient({ baseUrl: model.url });
  const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }], tools: [] };
  return await client.stream(request, new AbortController().signal, (event) => events.push(event));
}

function assertText(actual: string, expected: string | Long | undefined, what: string): void {
  if (typeof expected === "string" || expected === undefined) {
    assertStrictEquals(actual, expected ?? "", what);
    return;
  }
  assertStrictEquals(actual.length, expected.length, `${what} length`);
  assert(actual.startsWith(expected.start), `${what} starts with ${JSON.stringify(expected.start)}`);
  assert(actual.endsWith(expected.end), `${what} ends with ${JSON.stringify(expected.end)}`);
}

function assertTurn(turn: AssistantTurn, events: StreamEvent[], row: Expected): void {
  assertText(turn.text, row.text, "text");
  assertText(turn.reasoning, row.reasoning, "reasoning");
  assertEquals(turn.toolCalls, row.toolCalls ?? []);
  assertStrictEquals(turn.finishReason, row.finishReason);
  assertEquals(turn.usage, row.usage);
  assertStrictEquals(turn.model, row.model);
  // The deltas delivered on the way add up to the final turn.
  const joined = (type: string) => events.map((e) => e.type === type && "text" in e ? e.text : "").join("");
  assertStrictEquals(joined("text_delta"), turn.text);
  assertStrictEquals(joined("reasoning_delta"), turn.reasoning);
}

async function assertFailure(run: () => unknown, error: NonNullable<Expected["error"]>): Promise<void> {
  assert(((thrown: unknown) => {
    assert(thrown instanceof LlmError, `expected an LlmError, got ${thrown}`);
    assertStrictEquals(thrown.kind, error.kind);
    assert(thrown.message.includes(error.includes), `message: ${thrown.message}`);
    assertStrictEquals(thrown.partialOutput, error.partialOutput);
    return true;
  })(await assertRejects(async () => await run())));
}

Deno.test("every chat fixture file has a row in the expectation table", async () => {
  const files: string[] = [];
  for await (const entry of Deno.readDir(DIR)) if (entry.name.endsWith(".chunks.txt")) files.push(entry.name);
  assertEquals(files.sort(), TABLE.map((row) => row.file).sort());
});

TABLE.forEach((row, i) => {
  Deno.test(`fixture ${row.file} assembles directly and over HTTP in awkward chunks`, async () => {
    const lines = await fixtureLines(row.file);
    // Odd byte sizes cut lines, CRLF pairs and multi-byte characters; line endings vary by row.
    const http: ReplayOptions = {
      byteChunkSize: i % 2 === 0 ? 7 : 5,
      eol: (["\n", "\r\n", "\r"] as const)[i % 3],
    };
    if (row.error) {
      await assertFailure(() => assemble(lines, []), row.error);
      await assertFailure(() => overHttp(lines, [], http), row.error);
      return;
    }
    const direct: StreamEvent[] = [];
    assertTurn(assemble(lines, direct), direct, row);
    const viaHttp: StreamEvent[] = [];
    assertTurn(await overHttp(lines, viaHttp, http), viaHttp, row);
  });
});

Deno.test("each in-stream error shape of moonshot-error-object-variants gives the provider's message", async () => {
  const lines = await fixtureLines("moonshot-error-object-variants.chunks.txt");
  const messages = lines.map((line) => {
    try {
      new ChatAssembler().pushChunk(JSON.parse(line));
    } catch (error) {
      assert(error instanceof LlmError && error.kind === "stream_error");
      return error.message;
    }
    throw new Error("no error thrown");
  });
  assertEquals(messages, [
    "Stream error from the model provider: Coded stream failure (server_error, stream_code)",
    "Stream error from the model provider: Nullable code stream failure (server_error)",
    "Stream error from the model provider: Message-only stream failure",
  ]);
});

Deno.test("a fixture without finish_reason and without [DONE] is reported as interrupted", async () => {
  const lines = await fixtureLines("openai-compatible-tiny-reasoning-chunks.chunks.txt");
  const cut = lines.slice(0, -1); // drop the finish chunk
  await using model = replayChunks(cut, { done: false, byteChunkSize: 7 });
  const client = new ChatCompletionsClient({ baseUrl: model.url });
  const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }], tools: [] };
  await assertFailure(
    () => client.stream(request, new AbortController().signal, () => {}),
    { kind: "interrupted", includes: "without [DONE] or a finish_reason", partialOutput: true },
  );
});
