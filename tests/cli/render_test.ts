import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { formatUsage, Renderer, type Sink, summarizeArgs } from "../../src/cli/render.ts";

function capture(): Sink & { text: () => string } {
  const parts: string[] = [];
  return { write: (text) => parts.push(text), isTerminal: false, text: () => parts.join("") };
}

Deno.test("summarizeArgs() shows paths and commands whole and cuts long values", () => {
  assertEquals(summarizeArgs('{"path":"src/a.ts","offset":10}'), "src/a.ts offset=10");
  assertEquals(summarizeArgs('{"command":"deno task test"}'), "deno task test");
  assertEquals(summarizeArgs('{"content":"' + "x".repeat(50) + '"}'), "content=" + "x".repeat(23) + "…");
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
  screen.handle({ type: "reasoning_delta", text: "thinking" });
  screen.handle({ type: "text_delta", text: "Let me " });
  screen.handle({ type: "text_delta", text: "look." });
  screen.handle({ type: "tool_call", id: "c1", name: "read_file", arguments: '{"path":"a.txt"}' });
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
    "thinking\nLet me look.\n⏺ read_file a.txt\n  ⎿ ok 1\thello\n  ⎿ error old_text not found\n",
  );
});

Deno.test("Renderer for headless progress hides text and reasoning but keeps tool lines", () => {
  const sink = capture();
  const screen = new Renderer(sink, { showText: false, showReasoning: false, useColor: false });
  screen.handle({ type: "reasoning_delta", text: "secret thoughts" });
  screen.handle({ type: "text_delta", text: "answer" });
  screen.handle({ type: "tool_call", id: "c1", name: "execute_command", arguments: '{"command":"ls"}' });
  screen.handle({ type: "retry", attempt: 2, maxAttempts: 3, delayMs: 2100, reason: "429 rate limited" });
  screen.dispose();
  assertEquals(sink.text().includes("secret"), false);
  assertStringIncludes(sink.text(), "⏺ execute_command ls\n");
  assertStringIncludes(sink.text(), "retrying in 2.1 s (429 rate limited), attempt 2/3");
});
