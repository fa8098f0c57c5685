import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { Renderer } from "../../../src/cli/render/renderer.ts";
import type { Sink } from "../../../src/cli/render/sink.ts";
import { formatUsage } from "../../../src/cli/render/task_words.ts";
import { summarizeArgs } from "../../../src/cli/render/tool_lines.ts";
import type { ToolDetails } from "../../../src/tools/tool.ts";

function capture(): Sink & { text: () => string } {
  const parts: string[] = [];
  return { write: (text) => parts.push(text), isTerminal: false, text: () => parts.join("") };
}

Deno.test("summarizeArgs() shows raw arguments as key=value, each value cut, for calls without a summary", () => {
  assertEquals(summarizeArgs('{"path":"src/a.ts","offset":10}'), 'path="src/a.ts" offset=10');
  assertEquals(summarizeArgs('{"content":"' + "x".repeat(50) + '"}'), 'content="' + "x".repeat(22) + "…");
  assertEquals(summarizeArgs("{not json"), "{not json");
});

Deno.test("formatUsage() shows cached and reasoning tokens when reported", () => {
  assertEquals(
    formatUsage({ promptTokens: 1234, completionTokens: 56, totalTokens: 1290 }),
    "tokens: 1,234 in · 56 out",
  );
  assertEquals(
    formatUsage({
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      cachedTokens: 8,
      reasoningTokens: 3,
    }),
    "tokens: 10 in (8 cached) · 5 out (3 reasoning)",
  );
});

Deno.test("Renderer streams reasoning and text on separate lines and prints one line per tool event", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  screen.handle({ type: "model_start", turn: 1 });
  screen.handle({ type: "reasoning_delta", text: "I should look" });
  screen.handle({ type: "text_delta", text: "Let me " });
  screen.handle({ type: "text_delta", text: "look." });
  screen.handle({
    type: "tool_call",
    id: "c1",
    name: "read_file",
    arguments: '{"path":"a.txt"}',
    summary: "a.txt",
  });
  screen.handle({
    type: "tool_result",
    id: "c1",
    name: "read_file",
    content: "\n1\thello\n2\tworld",
    isError: false,
  });
  screen.handle({
    type: "tool_result",
    id: "c2",
    name: "edit_file",
    content: "old_text not found",
    isError: true,
  });
  screen.handle({ type: "final", text: "", exitReason: "done", partial: false });
  screen.dispose();
  assertEquals(
    sink.text(),
    "thinking: I should look\nLet me look.\n⏺ read_file a.txt\n  ⎿ ok 1 hello\n  ⎿ error old_text not found\n",
  );
});

Deno.test("Renderer for headless progress hides text and reasoning but keeps tool lines", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: false, showReasoning: false, useColor: false });
  screen.handle({ type: "reasoning_delta", text: "secret thoughts" });
  screen.handle({ type: "text_delta", text: "answer" });
  screen.handle({ type: "tool_call", id: "c1", name: "execute_command", arguments: "{}", summary: "ls" });
  screen.handle({ type: "retry", attempt: 2, maxAttempts: 3, delayMs: 2100, reason: "429 rate limited" });
  screen.dispose();
  assertEquals(sink.text().includes("secret"), false);
  assertStringIncludes(sink.text(), "⏺ execute_command ls\n");
  assertStringIncludes(sink.text(), "retrying in 2.1 s (429 rate limited), attempt 2/3");
});

Deno.test("Renderer says what a result did from its details, not from its text", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  const result = (name: string, content: string, details: ToolDetails, isError = false) =>
    screen.handle({ type: "tool_result", id: name, name, content, isError, details });
  result("edit_file", "Edited a.ts: replaced 1 occurrence", {
    diff: { path: "a.ts", added: 2, removed: 1, created: false },
  });
  result("write_file", "Created b.ts (3 bytes)", {
    diff: { path: "b.ts", added: 1, removed: 0, created: true },
  });
  result("execute_command", "FAIL\n[exit code 2]", { exitCode: 2, durationMs: 1234 }, true);
  result("read_file", "     1\tx", { shown: { from: 1, to: 200, of: 812, unit: "lines" } });
  result("grep_code", "[Output too long]", { spilledTo: ".tern/tool-outputs/x.txt" });
  result("list_dir", "a\nb", { shown: { from: 1, to: 14, of: 14, unit: "entries" } });
  result("execute_command", "[timed out]", { timedOut: true, durationMs: 60_000 }, true);
  result("grep_code", "a.ts:1:x", { shown: { from: 1, to: 100, of: 100, unit: "matches", more: true } });
  result("grep_code", "a.ts:1:x", { shown: { from: 1, to: 1, of: 1, unit: "matches" } });
  result("glob_files", "a.ts", { shown: { from: 1, to: 200, of: 340, unit: "files" } });
  result("list_dir", "a", { shown: { from: 1, to: 1, of: 1, unit: "entries" } });
  screen.dispose();
  assertEquals(sink.text().split("\n").slice(0, 12), [
    "  ⎿ ok a.ts: +2 −1 lines",
    "  ⎿ ok b.ts (new): +1 −0 line",
    "  ⎿ error exit 2 · 1.2 s · 1 line of output",
    "      FAIL",
    "  ⎿ ok lines 1–200 of 812",
    "  ⎿ ok [Output too long] · full output: .tern/tool-outputs/x.txt",
    "  ⎿ ok 14 entries",
    "  ⎿ error timed out after 60.0 s · 0 lines of output",
    "  ⎿ ok 100+ matches",
    "  ⎿ ok 1 match",
    "  ⎿ ok files 1–200 of 340",
    "  ⎿ ok 1 entry",
  ]);
});

Deno.test("Renderer never prints a tool's escape sequences to the terminal", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  screen.handle({
    type: "tool_call",
    id: "c",
    name: "run",
    arguments: "{}",
    summary: "printf '\x1b]52;c;aGk=\x07'",
  });
  screen.handle({
    type: "tool_result",
    id: "c",
    name: "run",
    content: "\x1b[2J✔ Approved\x1b]52;c;aGk=\x07",
    isError: false,
  });
  screen.dispose();
  const text = sink.text();
  assertEquals(text.includes("\x1b"), false, JSON.stringify(text));
  assertEquals(text.includes("\x07"), false, JSON.stringify(text));
  assertStringIncludes(text, "␛[2J✔ Approved");
});

Deno.test("Renderer says how many hidden characters were removed from a result", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  screen.handle({
    type: "tool_result",
    id: "c",
    name: "read_file",
    content: "x",
    isError: false,
    details: { hiddenCharacters: 3 },
  });
  screen.dispose();
  assertStringIncludes(sink.text(), "3 hidden characters removed");
});

/**
 * The rows a terminal shows after `output`: text, "\r", "\n", cursor-up ("\x1b[1A") and clear-line
 * ("\x1b[2K") are played; other escape sequences (colours) take no room.
 */
function screenOf(output: string): string[] {
  const rows = [""];
  let row = 0;
  let col = 0;
  // deno-lint-ignore no-control-regex -- escape sequences are what a terminal plays
  for (const token of output.match(/\x1b\[[0-9;]*[A-Za-z]|[\s\S]/gu) ?? []) {
    if (token === "\n") [row, col] = [row + 1, 0];
    else if (token === "\r") col = 0;
    else if (token.startsWith("\x1b[") && token.endsWith("A")) {
      row = Math.max(0, row - Number(token.slice(2, -1) || 1));
    } else if (token === "\x1b[2K") rows[row] = "";
    else if (!token.startsWith("\x1b")) {
      const line = (rows[row] ?? "").padEnd(col);
      rows[row] = line.slice(0, col) + token + line.slice(col + 1);
      col++;
    }
    rows[row] ??= "";
  }
  return rows.map((text) => text.trimEnd());
}

Deno.test("Renderer draws a running command's last lines under its call on a terminal, erased by its result", () => {
  const parts: string[] = [];
  const sink: Sink = { write: (text) => parts.push(text), isTerminal: true };
  const screen = new Renderer(sink, { showText: true, showReasoning: false, useColor: false });
  const call = { id: "c", name: "execute_command" };
  screen.handle({ type: "tool_call", ...call, arguments: "{}", summary: "make" });
  screen.handle({ type: "tool_start", ...call, effect: "exec" });
  screen.handle({ type: "tool_update", ...call, tail: ["line1"] });
  screen.handle({ type: "tool_update", ...call, tail: ["line1", "line2\x1b[2J"] });
  const running = screenOf(parts.join(""));
  assertEquals(running.slice(0, 3), ["⏺ execute_command make", "    line1", "    line2␛[2J"]);
  assertStringIncludes(running[3], "running");
  assertEquals(running.length, 4);
  screen.handle({
    type: "tool_result",
    ...call,
    content: "line1\nline2",
    isError: false,
    details: { exitCode: 0 },
  });
  screen.dispose();
  const done = screenOf(parts.join("")).filter((row) => row !== "");
  assertEquals(done, ["⏺ execute_command make", "  ⎿ ok exit 0 · 2 lines of output"]);
});

Deno.test("Renderer prints nothing for a running command's progress on a sink that is not a terminal", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: true, showReasoning: false, useColor: false });
  screen.handle({ type: "tool_start", id: "c", name: "execute_command", effect: "exec" });
  screen.handle({ type: "tool_update", id: "c", name: "execute_command", tail: ["line1"] });
  screen.dispose();
  assertEquals(sink.text(), "");
});

Deno.test("Renderer passes the model's streamed words and printed outside text through terminal_safe", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  screen.handle({ type: "reasoning_delta", text: "think\x1b[2J" });
  screen.handle({ type: "text_delta", text: "answer\x1b]0;title\x07 done\n" });
  screen.print("from AGENTS.md: \x1b[31mred\u202e");
  screen.printRendered("\x1b[32m+ added\x1b[39m");
  screen.dispose();
  const text = sink.text();
  assertStringIncludes(text, "think␛[2J");
  assertStringIncludes(text, "answer␛]0;title␇ done");
  assertStringIncludes(text, "from AGENTS.md: ␛[31mred<U+202E>");
  assertStringIncludes(text, "\x1b[32m+ added\x1b[39m");
  assertEquals(text.replace("\x1b[32m+ added\x1b[39m", "").includes("\x1b"), false);
});
