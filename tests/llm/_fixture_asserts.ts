/** Assertions the recorded-stream tests of every wire share. */
import assert from "node:assert/strict";
import { type AssistantTurn, LlmError, type StreamEvent } from "../../src/llm/types.ts";
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

function assertText(actual: string, expected: string | Long | undefined, what: string): void {
  if (typeof expected === "string" || expected === undefined) {
    assert.equal(actual, expected ?? "", what);
    return;
  }
  assert.equal(actual.length, expected.length, `${what} length`);
  assert.ok(actual.startsWith(expected.start), `${what} starts with ${JSON.stringify(expected.start)}`);
  assert.ok(actual.endsWith(expected.end), `${what} ends with ${JSON.stringify(expected.end)}`);
}

/** The turn matches the row, and (unless `deltas` is false) the deltas delivered add up to it. */
export function assertTurn(turn: AssistantTurn, events: StreamEvent[], row: Expected, deltas = true): void {
  assertText(turn.text, row.text, "text");
  assertText(turn.reasoning, row.reasoning, "reasoning");
  assert.deepEqual(turn.toolCalls, row.toolCalls ?? []);
  assert.equal(turn.finishReason, row.finishReason);
  assert.deepEqual(turn.usage, row.usage);
  assert.equal(turn.model, row.model);
  if (!deltas) return;
  const joined = (type: string) => events.map((e) => e.type === type && "text" in e ? e.text : "").join("");
  assert.equal(joined("text_delta"), turn.text);
  assert.equal(joined("reasoning_delta"), turn.reasoning);
}

/** `run` rejects with an LlmError of the row's kind, words and partial-output flag. */
export async function assertFailure(
  run: () => unknown,
  error: NonNullable<Expected["error"]>,
): Promise<void> {
  await assert.rejects(async () => await run(), (thrown: unknown) => {
    assert.ok(thrown instanceof LlmError, `expected an LlmError, got ${thrown}`);
    assert.equal(thrown.kind, error.kind);
    assert.ok(thrown.message.includes(error.includes), `message: ${thrown.message}`);
    assert.equal(thrown.partialOutput, error.partialOutput);
    return true;
  });
}
