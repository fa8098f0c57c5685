/** The Responses assembler's answer text: finished texts win over deltas, separate messages stay apart. */
import { assertEquals } from "../support/assert.ts";
import { ResponsesAssembler } from "../../src/llm/_responses_assembler.ts";
import type { AssistantTurn, StreamEvent } from "../../src/llm/types.ts";

type Json = Record<string, unknown>;

/** Feeds `events` to a fresh assembler; returns the turn and the text the screen was given. */
function assemble(events: Json[]): { turn: AssistantTurn; shown: string } {
  const assembler = new ResponsesAssembler();
  const deltas: StreamEvent[] = events.flatMap((event) => assembler.pushEvent(event));
  const shown = deltas.map((delta) => delta.type === "text_delta" ? delta.text : "").join("");
  return { turn: assembler.finish(), shown };
}

const added = (index: number, id: string): Json => ({
  type: "response.output_item.added",
  output_index: index,
  item: { id, type: "message", role: "assistant", content: [] },
});
const delta = (index: number, id: string, text: string): Json => ({
  type: "response.output_text.delta",
  output_index: index,
  item_id: id,
  content_index: 0,
  delta: text,
});
const textDone = (index: number, id: string, text: string): Json => ({
  type: "response.output_text.done",
  output_index: index,
  item_id: id,
  content_index: 0,
  text,
});
const itemDone = (index: number, id: string, text: string): Json => ({
  type: "response.output_item.done",
  output_index: index,
  item: { id, type: "message", role: "assistant", content: [{ type: "output_text", text }] },
});
const COMPLETED: Json = { type: "response.completed", response: { status: "completed" } };

Deno.test("ResponsesAssembler keeps a commentary message and the final answer apart", () => {
  const { turn, shown } = assemble([
    added(0, "msg_a"),
    delta(0, "msg_a", "Got it"),
    itemDone(0, "msg_a", "Got it"),
    added(1, "msg_b"),
    delta(1, "msg_b", "Here are "),
    delta(1, "msg_b", "the files."),
    itemDone(1, "msg_b", "Here are the files."),
    COMPLETED,
  ]);
  assertEquals(turn.text, "Got it\n\nHere are the files.");
  assertEquals(shown, "Got it\n\nHere are the files.");
});

Deno.test("ResponsesAssembler takes output_text.done as the text when it differs from the deltas", () => {
  const { turn } = assemble([
    added(0, "msg_a"),
    delta(0, "msg_a", "The result is 57"),
    textDone(0, "msg_a", "The result is **570**."),
    COMPLETED,
  ]);
  assertEquals(turn.text, "The result is **570**.");
});

Deno.test("ResponsesAssembler streams the rest when output_item.done completes what the deltas began", () => {
  const { turn, shown } = assemble([
    added(0, "msg_a"),
    delta(0, "msg_a", "Half"),
    itemDone(0, "msg_a", "Half and the rest."),
    COMPLETED,
  ]);
  assertEquals([turn.text, shown], ["Half and the rest.", "Half and the rest."]);
});

Deno.test("ResponsesAssembler keeps a message sent only whole apart from the one before it", () => {
  const { turn } = assemble([
    added(0, "msg_a"),
    delta(0, "msg_a", "Checking."),
    added(1, "msg_b"),
    itemDone(1, "msg_b", "Done: 3 files."),
    COMPLETED,
  ]);
  assertEquals(turn.text, "Checking.\n\nDone: 3 files.");
});
