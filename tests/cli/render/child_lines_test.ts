import { assertEquals } from "../../support/assert.ts";
import { ChildBoard } from "../../../src/cli/render/child_lines.ts";
import { Renderer } from "../../../src/cli/render/renderer.ts";
import type { Sink } from "../../../src/cli/render/sink.ts";

const plain = (_color: string, text: string) => text;

Deno.test("ChildBoard shows each running child as one line: agent, job, turn, the call running or the last", () => {
  const board = new ChildBoard();
  board.handle({ type: "child_start", childId: "c1", agent: "general", description: "read a" });
  board.handle({ type: "child_start", childId: "c2", agent: "reviewer", description: "review b" });
  assertEquals(board.lines(80, plain), [
    "  ↳ general · read a · turn 0 · starting",
    "  ↳ reviewer · review b · turn 0 · starting",
  ]);
  board.handle({ type: "child_event", childId: "c1", event: { type: "model_start", turn: 1 } });
  const call = { type: "tool_call" as const, id: "x", name: "read_file", arguments: "{}", summary: "a.txt" };
  board.handle({ type: "child_event", childId: "c1", event: call });
  assertEquals(board.lines(80, plain)[0], "  ↳ general · read a · turn 1 · read_file a.txt");
  const result = { type: "tool_result" as const, id: "x", name: "read_file", content: "", isError: false };
  board.handle({ type: "child_event", childId: "c1", event: result });
  board.handle({ type: "child_event", childId: "c1", event: { type: "model_start", turn: 2 } });
  assertEquals(board.lines(80, plain)[0], "  ↳ general · read a · turn 2 · thinking (last: read_file a.txt)");
  assertEquals(
    board.handle({ type: "child_event", childId: "c1", event: { type: "text_delta", text: "x" } }),
    false,
  );
  const final = { type: "final" as const, text: "", exitReason: "done" as const, partial: false };
  board.handle({ type: "child_event", childId: "c1", event: final });
  assertEquals(board.lines(30, plain), ["  ↳ reviewer · review b · tur…"]);
});

Deno.test("Renderer folds a sub-agent's answer into its result line with what it used", () => {
  const parts: string[] = [];
  const sink: Sink = { write: (text) => parts.push(text), isTerminal: false };
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  screen.handle({ type: "child_start", childId: "c1", agent: "general", description: "read a" });
  const subAgent = { agent: "general", exitReason: "done", turns: 2, toolCalls: 1, tokens: 1234 };
  screen.handle({
    type: "tool_result",
    id: "c1",
    name: "task",
    content:
      "a.txt says alpha.\nsecond line\nthird line\n\n[sub-agent general: 2 turns, 1 tool call, 1,234 tokens]",
    isError: false,
    details: { subAgent },
  });
  assertEquals(
    parts.join(""),
    "  ⎿ ok a.txt says alpha. · general: 2 turns, 1 tool call, 1,234 tokens · +2 lines (/expand)\n",
  );
});
