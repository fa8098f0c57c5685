/** Every recorded chat-completions stream in tests/fixtures assembles into the turn read off the file. */
import { assert, assertEquals } from "../support/assert.ts";
import { ChatAssembler } from "../../src/llm/_chat_assembler.ts";
import { type AssistantTurn, LlmError, type StreamEvent } from "../../src/llm/types.ts";
import type { ReplayOptions } from "../support/fake_model_server.ts";
import { TABLE } from "./_chat_fixture_table.ts";
import { assertFailure, assertTurn, fixtureFiles, fixtureLines, replayOverHttp } from "./_fixture_asserts.ts";

const DIR = new URL("../fixtures/streams/chat/", import.meta.url);

/** Feeds the lines straight into the assembler, ending with [DONE] as a replay over HTTP would. */
function assemble(lines: string[], events: StreamEvent[]): AssistantTurn {
  const assembler = new ChatAssembler();
  for (const line of lines) events.push(...assembler.pushEvent(JSON.parse(line)));
  assembler.done();
  return assembler.finish();
}

Deno.test("every chat fixture file has a row in the expectation table", async () => {
  assertEquals(await fixtureFiles(DIR), TABLE.map((row) => row.file).sort());
});

TABLE.forEach((row, i) => {
  Deno.test(`fixture ${row.file} assembles directly and over HTTP in awkward chunks`, async () => {
    const lines = await fixtureLines(DIR, row.file);
    // Odd byte sizes cut lines, CRLF pairs and multi-byte characters; line endings vary by row.
    const http: ReplayOptions = {
      byteChunkSize: i % 2 === 0 ? 7 : 5,
      eol: (["\n", "\r\n", "\r"] as const)[i % 3],
    };
    if (row.error) {
      await assertFailure(() => assemble(lines, []), row.error);
      await assertFailure(() => replayOverHttp("chat", lines, [], http), row.error);
      return;
    }
    const direct: StreamEvent[] = [];
    assertTurn(assemble(lines, direct), direct, row);
    const viaHttp: StreamEvent[] = [];
    assertTurn(await replayOverHttp("chat", lines, viaHttp, http), viaHttp, row);
  });
});

Deno.test("each in-stream error shape of moonshot-error-object-variants gives the provider's message", async () => {
  const lines = await fixtureLines(DIR, "moonshot-error-object-variants.chunks.txt");
  const messages = lines.map((line) => {
    try {
      new ChatAssembler().pushEvent(JSON.parse(line));
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
  const lines = await fixtureLines(DIR, "openai-compatible-tiny-reasoning-chunks.chunks.txt");
  const cut = lines.slice(0, -1); // drop the finish chunk
  await assertFailure(
    () => replayOverHttp("chat", cut, [], { done: false, byteChunkSize: 7 }),
    { kind: "interrupted", includes: "without [DONE] or a finish_reason", partialOutput: true },
  );
});
