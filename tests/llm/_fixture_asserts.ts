/** Assertions the recorded-stream tests of every wire share. */
import { assert, assertEquals, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { createClient } from "../../src/llm/client.ts";
import { type AssistantTurn, LlmError, type StreamEvent, type WireApi } from "../../src/llm/types.ts";
import { replayChunks, type ReplayOptions } from "../support/fake_model_server.ts";
import type { Expected, Long } from "./_chat_fixture_table.ts";

/** A fixture's non-empty lines (one JSON payload each). */
export async function fixtureLines(dir: URL, file: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(file, dir));
  return text.split("\n").filter((line) => line.trim() !== "");
}

/** The `*.chunks.txt` files of a fixture folder, sorted. */
export async function fixtureFiles(dir: URL): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.name.endsWith(".chunks.txt")) files.push(entry.name);
  return files.sort();
}

/**
 * Streams the lines through `api`'s client from a replay server speaking that wire
 * (event names on the Anthropic and Responses wires), collecting the events delivered.
 */
export async function replayOverHttp(
  api: WireApi,
  lines: string[],
  events: StreamEvent[],
  options: ReplayOptions,
): Promise<AssistantTurn> {
  await using model = replayChunks(lines, { ...options, named: api !== "chat" });
  const client = createClient({ api, baseUrl: api === "anthropic" ? model.root : model.url, apiKey: "k" });
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

/** The turn matches the row, and (unless `deltas` is false) the deltas delivered add up to it. */
export function assertTurn(turn: AssistantTurn, events: StreamEvent[], row: Expected, deltas = true): void {
  assertText(turn.text, row.text, "text");
  assertText(turn.reasoning, row.reasoning, "reasoning");
  assertEquals(turn.toolCalls, row.toolCalls ?? []);
  assertStrictEquals(turn.finishReason, row.finishReason);
  assertEquals(turn.usage, row.usage);
  assertStrictEquals(turn.model, row.model);
  if (!deltas) return;
  const joined = (type: string) => events.map((e) => e.type === type && "text" in e ? e.text : "").join("");
  assertStrictEquals(joined("text_delta"), turn.text);
  assertStrictEquals(joined("reasoning_delta"), turn.reasoning);
}

/** `run` rejects with an LlmError of the row's kind, words and partial-output flag. */
export async function assertFailure(
  run: () => unknown,
  error: NonNullable<Expected["error"]>,
): Promise<void> {
  assert(((thrown: unknown) => {
    assert(thrown instanceof LlmError, `expected an LlmError, got ${thrown}`);
    assertStrictEquals(thrown.kind, error.kind);
    assert(thrown.message.includes(error.includes), `message: ${thrown.message}`);
    assertStrictEquals(thrown.partialOutput, error.partialOutput);
    return true;
  })(await assertRejects(async () => await run())));
}
