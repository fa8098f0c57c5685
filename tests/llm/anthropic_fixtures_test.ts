/** Every recorded Anthropic Messages stream in tests/fixtures assembles into the turn read off the file. */
import { assertEquals, assertStrictEquals } from "../support/assert.ts";
import { AnthropicAssembler } from "../../src/llm/_anthropic_assembler.ts";
import type { AssistantTurn, StreamEvent } from "../../src/llm/types.ts";
import type { ReplayOptions } from "../support/fake_model_server.ts";
import { ANTHROPIC_TABLE, type AnthropicExpected } from "./_anthropic_fixture_table.ts";
import { assertTurn, fixtureFiles, fixtureLines, replayOverHttp } from "./_fixture_asserts.ts";

const DIR = new URL("../fixtures/streams/anthropic/", import.meta.url);

function assemble(lines: string[], events: StreamEvent[]): AssistantTurn {
  const assembler = new AnthropicAssembler();
  for (const line of lines) events.push(...assembler.pushEvent(JSON.parse(line)));
  return assembler.finish();
}

function assertKept(turn: AssistantTurn, row: AnthropicExpected): void {
  if (!row.signatures) {
    assertStrictEquals(turn.providerData, undefined);
    return;
  }
  assertStrictEquals(turn.providerData?.api, "anthropic");
  const blocks = turn.providerData?.blocks as { type: string; thinking: string; signature: string }[];
  assertEquals(
    blocks.map((b) => ({ start: b.signature.slice(0, 20), length: b.signature.length })),
    row.signatures,
  );
  // The thinking sent back is exactly the thinking shown.
  assertStrictEquals(blocks.map((b) => b.thinking).join(""), turn.reasoning);
}

Deno.test("every Anthropic fixture file has a row in the expectation table", async () => {
  assertEquals(await fixtureFiles(DIR), ANTHROPIC_TABLE.map((row) => row.file).sort());
  assertStrictEquals(ANTHROPIC_TABLE.length, 12);
});

ANTHROPIC_TABLE.forEach((row, i) => {
  Deno.test(`Anthropic fixture ${row.file} assembles directly and over HTTP with event names`, async () => {
    const lines = await fixtureLines(DIR, row.file);
    const direct: StreamEvent[] = [];
    const turn = assemble(lines, direct);
    assertTurn(turn, direct, row, !row.replaced);
    assertKept(turn, row);
    const http: ReplayOptions = { byteChunkSize: i % 2 === 0 ? 7 : 5, eol: (["\n", "\r\n"] as const)[i % 2] };
    const viaHttp: StreamEvent[] = [];
    const remote = await replayOverHttp("anthropic", lines, viaHttp, http);
    assertTurn(remote, viaHttp, row, !row.replaced);
    assertKept(remote, row);
  });
});
