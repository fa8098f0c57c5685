/** Every recorded OpenAI Responses stream in tests/fixtures assembles into the turn(s) read off the file. */
import { assertEquals, assertStrictEquals } from "../support/assert.ts";
import { ResponsesAssembler } from "../../src/llm/_responses_assembler.ts";
import type { AssistantTurn, StreamEvent } from "../../src/llm/types.ts";
import type { ReplayOptions } from "../support/fake_model_server.ts";
import { RESPONSES_TABLE, type ResponsesExpected } from "./_responses_fixture_table.ts";
import { assertFailure, assertTurn, fixtureFiles, fixtureLines, replayOverHttp } from "./_fixture_asserts.ts";

const DIR = new URL("../fixtures/streams/responses/", import.meta.url);
const TERMINAL = /"type":\s*"response\.(completed|incomplete|failed)"/;

/** A file's lines cut into its responses (a recorded agent loop holds several back to back). */
function responsesOf(lines: string[]): string[][] {
  const groups: string[][] = [[]];
  for (const line of lines) {
    groups.at(-1)!.push(line);
    if (TERMINAL.test(line)) groups.push([]);
  }
  return groups.filter((group) => group.length > 0);
}

function assemble(lines: string[], events: StreamEvent[]): AssistantTurn {
  const assembler = new ResponsesAssembler();
  for (const line of lines) events.push(...assembler.pushEvent(JSON.parse(line)));
  return assembler.finish();
}

function assertRow(turn: AssistantTurn, events: StreamEvent[], row: ResponsesExpected): void {
  assertTurn(turn, events, row);
  assertStrictEquals(turn.rawFinishReason, row.rawFinishReason);
  const kept = (turn.providerData?.reasoning ?? []) as { id: string }[];
  assertEquals(kept.map((item) => item.id), row.reasoningItems ?? []);
}

Deno.test("every Responses fixture file has a row per response in the expectation table", async () => {
  const files = await fixtureFiles(DIR);
  assertStrictEquals(files.length, 13);
  assertEquals(files, [...new Set(RESPONSES_TABLE.map((row) => row.file))].sort());
  for (const file of files) {
    const responses = responsesOf(await fixtureLines(DIR, file));
    assertStrictEquals(RESPONSES_TABLE.filter((row) => row.file === file).length, responses.length, file);
  }
});

for (const [i, file] of [...new Set(RESPONSES_TABLE.map((row) => row.file))].entries()) {
  const rows = RESPONSES_TABLE.filter((row) => row.file === file);
  Deno.test(`Responses fixture ${file} assembles directly and over HTTP with event names`, async () => {
    const all = await fixtureLines(DIR, file);
    const responses = responsesOf(all);
    for (const [n, row] of rows.entries()) {
      if (row.error) {
        await assertFailure(() => assemble(responses[n], []), row.error);
        continue;
      }
      const direct: StreamEvent[] = [];
      assertRow(assemble(responses[n], direct), direct, row);
    }
    // Over HTTP the first terminal event ends the turn: whatever follows on the stream is not read.
    const http: ReplayOptions = { byteChunkSize: i % 2 === 0 ? 7 : 5, eol: (["\n", "\r\n"] as const)[i % 2] };
    if (rows[0].error) {
      await assertFailure(() => replayOverHttp("responses", all, [], http), rows[0].error);
      return;
    }
    const viaHttp: StreamEvent[] = [];
    assertRow(await replayOverHttp("responses", all, viaHttp, http), viaHttp, rows[0]);
  });
}
