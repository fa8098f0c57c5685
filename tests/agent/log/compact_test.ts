import { assert, assertEquals } from "../../support/assert.ts";
import { checkRequest } from "../../support/_fake_model_wire.ts";
import { toWireMessage } from "../../../src/llm/chat_completions.ts";
import { IMAGE_TOKENS, type Message } from "../../../src/llm/types.ts";
import {
  abbreviateCall,
  compactHistory,
  cutOutput,
  DROPPED_ARGUMENT,
  DROPPED_OUTPUT,
  estimateTokens,
} from "../../../src/agent/log/compact.ts";

const big = (label: string, chars = 40_000) => `${label}:${"x".repeat(chars)}`;

/** A system prompt, one task with `steps` read_file steps each returning a big output, and a final answer. */
function history(steps: number): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are tern." },
    { role: "user", content: "look around" },
  ];
  for (let i = 0; i < steps; i++) {
    const id = `call_${i}`;
    out.push({
      role: "assistant",
      content: "",
      reasoning: "",
      toolCalls: [{ id, name: "read_file", arguments: `{"path":"f${i}.ts"}` }],
    });
    out.push({ role: "tool", toolCallId: id, name: "read_file", content: big(`out${i}`), isError: false });
  }
  return out;
}

/** The fake model's strict check: every tool call answered exactly once, in order. */
function wellFormed(messages: Message[]): string | undefined {
  return checkRequest({
    model: "m",
    stream: true,
    messages: messages.map((message) => toWireMessage(message)),
  });
}

Deno.test("estimateTokens() counts about four characters a token plus a little per message", () => {
  const messages: Message[] = [
    { role: "user", content: "x".repeat(400) },
    {
      role: "assistant",
      content: "",
      reasoning: "r".repeat(40),
      toolCalls: [{ id: "c", name: "t", arguments: "{}" }],
    },
  ];
  assertEquals(estimateTokens(messages), 4 + 100 + 4 + Math.ceil(44 / 4));
  assertEquals(estimateTokens([]), 0);
});

Deno.test("compactHistory() drops the oldest tool outputs first and stops once under the target", () => {
  const messages = history(6);
  const result = compactHistory(messages, { contextWindow: 80_000 });
  assert(result.fits);
  assert(result.tokensAfter <= 40_000);
  assertEquals(result.droppedOutputs, 3);
  const contents = result.messages.filter((m) => m.role === "tool").map((m) => m.content.slice(0, 5));
  assertEquals(contents, [
    DROPPED_OUTPUT.slice(0, 5),
    DROPPED_OUTPUT.slice(0, 5),
    DROPPED_OUTPUT.slice(0, 5),
    "out3:",
    "out4:",
    "out5:",
  ]);
  assertEquals(wellFormed(result.messages), undefined);
  assertEquals(estimateTokens(result.messages), result.tokensAfter);
});

Deno.test("compactHistory() keeps every tool call paired with exactly one result", () => {
  const result = compactHistory(history(8), { contextWindow: 10_000 });
  const calls = result.messages.flatMap((m) => m.role === "assistant" ? m.toolCalls ?? [] : []);
  const results = result.messages.filter((m) => m.role === "tool");
  assertEquals(results.map((m) => m.role === "tool" && m.toolCallId), calls.map((c) => c.id));
  assertEquals(wellFormed(result.messages), undefined);
});

Deno.test("compactHistory() never touches the system prompt, the last user message or the latest step", () => {
  const messages = history(4);
  messages[0] = { role: "system", content: big("system", 20_000) };
  messages[1] = { role: "user", content: big("user", 20_000) };
  const result = compactHistory(messages, { contextWindow: 1_000 });
  assertEquals(result.fits, false);
  assertEquals(result.messages[0], messages[0]);
  assertEquals(result.messages[1], messages[1]);
  const last = messages.length - 1;
  assertEquals(result.messages.slice(last - 1), messages.slice(last - 1));
  assertEquals(result.droppedOutputs, 3);
});

Deno.test("compactHistory() protects the previous answer when the history ends with a new user message", () => {
  const messages: Message[] = [
    ...history(2),
    { role: "assistant", content: big("answer") },
    { role: "user", content: "next task" },
  ];
  const result = compactHistory(messages, { contextWindow: 1_000 });
  assertEquals(result.droppedOutputs, 2);
  assertEquals(result.messages.slice(-2), messages.slice(-2));
});

Deno.test("compactHistory() then abbreviates long strings in old tool-call arguments, keeping valid JSON", () => {
  const content = "y".repeat(50_000);
  const messages: Message[] = [
    { role: "system", content: "s" },
    { role: "user", content: "write it" },
    {
      role: "assistant",
      content: "",
      reasoning: "",
      toolCalls: [{ id: "w", name: "write_file", arguments: JSON.stringify({ path: "a.ts", content }) }],
    },
    { role: "tool", toolCallId: "w", name: "write_file", content: "Wrote a.ts", isError: false },
    { role: "assistant", content: "Done." },
  ];
  const result = compactHistory(messages, { contextWindow: 10_000 });
  assert(result.fits);
  assertEquals(result.abbreviatedCalls, 1);
  const call = result.messages[2].role === "assistant" ? result.messages[2].toolCalls?.[0] : undefined;
  assertEquals(JSON.parse(call?.arguments ?? ""), { path: "a.ts", content: DROPPED_ARGUMENT });
  assertEquals(call?.id, "w");
  // The input is not modified.
  assertEquals(
    messages[2].role === "assistant" && messages[2].toolCalls?.[0].arguments,
    JSON.stringify({ path: "a.ts", content }),
  );
});

Deno.test("compactHistory() leaves a history under the target as it is", () => {
  const messages = history(2);
  const result = compactHistory(messages, { contextWindow: 1_000_000 });
  assertEquals(result.messages, messages);
  assertEquals([result.droppedOutputs, result.abbreviatedCalls, result.fits], [0, 0, true]);
});

Deno.test("compactHistory() after an overflow error frees at least a quarter even when the estimate fits", () => {
  const messages = history(4);
  const before = estimateTokens(messages);
  const result = compactHistory(messages, { contextWindow: 1_000_000, afterOverflow: true });
  assert(result.fits);
  assert(result.tokensAfter <= 0.75 * before);
  // Four outputs of ~10k tokens each: one dropped leaves just over three quarters, so two go.
  assertEquals(result.droppedOutputs, 2);
});

Deno.test("compactHistory() does not count an already dropped output again", () => {
  const first = compactHistory(history(6), { contextWindow: 80_000 });
  const second = compactHistory(first.messages, { contextWindow: 40_000 });
  assertEquals(second.droppedOutputs, 2);
  assertEquals(second.messages.filter((m) => m.content === DROPPED_OUTPUT).length, 5);
});

Deno.test("an image counts as IMAGE_TOKENS, not its base64, and a dropped output takes its images along", () => {
  const image = { mediaType: "image/png" as const, data: "A".repeat(400_000), name: "shot.png" };
  const messages: Message[] = [
    { role: "system", content: "s" },
    { role: "user", content: "look" },
    { role: "assistant", content: "", toolCalls: [{ id: "a", name: "read_file", arguments: "{}" }] },
    {
      role: "tool",
      toolCallId: "a",
      name: "read_file",
      content: "shot.png",
      isError: false,
      images: [image],
    },
    { role: "assistant", content: "", toolCalls: [{ id: "b", name: "read_file", arguments: "{}" }] },
    { role: "tool", toolCallId: "b", name: "read_file", content: "ok", isError: false },
  ];
  const withoutImage = messages.map((m) => m.role === "tool" ? { ...m, images: undefined } : m);
  assertEquals(estimateTokens(messages) - estimateTokens(withoutImage), IMAGE_TOKENS);
  const result = compactHistory(messages, { contextWindow: 1_000 });
  assertEquals(result.messages[3], {
    role: "tool",
    toolCallId: "a",
    name: "read_file",
    content: DROPPED_OUTPUT,
    isError: false,
  });
});

Deno.test("cutOutput() keeps whole lines and says where the rest is, or that it could not be saved", () => {
  const text = "alpha\nbeta\ngamma\ndelta\n";
  assertEquals(
    cutOutput(text, { keepChars: 13, savedAs: "out.txt" }),
    "[Output cut to fit the context window: 2 line(s), 11 of its 23 characters, are shown; the whole " +
      "output is in out.txt: read it with read_file (a limit in lines) or search it with grep_code.]\n" +
      "alpha\nbeta\n… [12 characters cut] …",
  );
  assertEquals(
    cutOutput(text, { keepChars: 0 }),
    "[Output cut to fit the context window: 0 line(s), 0 of its 23 characters, are shown; it could not be " +
      "saved: call the tool again for a smaller part (a line range, a narrower pattern).]\n… [23 characters " +
      "cut] …",
  );
  assertEquals(cutOutput(text, { keepChars: 23 }), text);
});

Deno.test("cutOutput() never splits a surrogate pair in a line without a break", () => {
  const cut = cutOutput("🦊".repeat(50), { keepChars: 7 });
  assert(cut.includes("\n🦊🦊🦊\n… ["), cut);
});

Deno.test("abbreviateCall() replaces huge arguments that are not JSON with a note of their size; short ones stay", () => {
  const raw = { id: "c", name: "write_file", arguments: `{"path":"a","content":"${"x".repeat(40_000)}` };
  const short = abbreviateCall(raw);
  assertEquals(JSON.parse(short.arguments), {
    arguments: "[dropped to fit the context window]: 40,023 characters, not JSON",
  });
  const small = { id: "d", name: "write_file", arguments: '{"path":"a"' };
  assertEquals(abbreviateCall(small), small);
});
