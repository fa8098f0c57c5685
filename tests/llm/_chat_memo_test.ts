import { assert, assertEquals, assertStrictEquals } from "../support/assert.ts";
import { shortIdsMemo, WireMessages } from "../../src/llm/_chat_memo.ts";
import { chatWire, toWireMessage } from "../../src/llm/chat_completions.ts";
import type { ChatRequest, Message } from "../../src/llm/types.ts";
import { randomCallId } from "../../src/llm/call_id.ts";

const opaque = (n: number) => `call_${String(n).padStart(24, "x")}`;

function step(id: string): Message[] {
  return [
    { role: "assistant", content: "", toolCalls: [{ id, name: "echo", arguments: "{}" }] },
    { role: "tool", toolCallId: id, name: "echo", content: "ok", isError: false },
  ];
}

/** A history of `n` steps, the ids of `ids` (opaque unless given), with the same objects on each call. */
function history(ids: string[]): Message[] {
  return [{ role: "system", content: "s" }, { role: "user", content: "go" }, ...ids.flatMap(step)];
}

const ids = (messages: Message[]) =>
  messages.flatMap((m) =>
    m.role === "tool" ? [m.toolCallId] : m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : []
  );

Deno.test("shortIdsMemo() gives what a fresh numbering gives as the history grows, reusing earlier messages", () => {
  const memo = shortIdsMemo();
  const all = history([opaque(1), opaque(2), "c4", opaque(3), opaque(4)]);
  let previous: Message[] = [];
  for (let length = 2; length <= all.length; length++) {
    const messages = all.slice(0, length);
    const kept = memo(messages);
    assertEquals(kept, shortIdsMemo()(messages));
    // What the last request already had is the same objects: a wire keeps what it built from them.
    previous.forEach((message, i) => assertStrictEquals(kept[i], message));
    previous = kept;
  }
  // The server's own "c4" is kept, and never handed out to an opaque id.
  assertEquals(ids(memo(all)), ["c1", "c1", "c2", "c2", "c4", "c4", "c3", "c3", "c5", "c5"]);
});

Deno.test("shortIdsMemo() numbers afresh when a new kept id is a name it already gave, or the history changed", () => {
  const memo = shortIdsMemo();
  const first = history([opaque(1), opaque(2)]);
  assertEquals(ids(memo(first)), ["c1", "c1", "c2", "c2"]);
  // A server now issues "c1" itself: the opaque ids must move out of its way, in every message.
  const grown = [...first, ...step("c1")];
  assertEquals(memo(grown), shortIdsMemo()(grown));
  assertEquals(ids(memo(grown)), ["c2", "c2", "c3", "c3", "c1", "c1"]);
  // A compaction or an undo: other messages than the ones before; the result is a fresh numbering's.
  const other = history([opaque(7)]);
  assertEquals(memo(other), shortIdsMemo()(other));
});

Deno.test("shortIdsMemo() shortens the ids tern gave calls whose server id was missing or repeated", () => {
  // A server that numbers every answer's calls from 0 again: the loop renames each repeat (tern_ + 24).
  const renamed = [randomCallId("tern_"), randomCallId("tern_")];
  assertEquals(ids(shortIdsMemo()(history(["call_0", ...renamed]))), [
    "call_0",
    "call_0",
    "c1",
    "c1",
    "c2",
    "c2",
  ]);
  // Only that exact shape: a server's own tern_-named id of another length is its own, kept.
  assertEquals(ids(shortIdsMemo()(history(["tern_1"]))), ["tern_1", "tern_1"]);
});

Deno.test("WireMessages keeps one wire form per message and echo rule, and its JSON after a comma", () => {
  const cache = new WireMessages();
  const message: Message = { role: "user", content: 'héllo "x"' };
  let made = 0;
  const make = (m: Message) => {
    made++;
    return toWireMessage(m);
  };
  const form = cache.form(message, false, make);
  assertStrictEquals(cache.form(message, false, make), form);
  assert(cache.form(message, true, make) !== form);
  assertEquals(made, 2);
  assertEquals(new TextDecoder().decode(cache.bytes(form)), `,${JSON.stringify(form)}`);
  assertStrictEquals(cache.bytes(form), cache.bytes(form));
});

Deno.test("chatWire() sends, request after request, the bytes JSON.stringify gives for the body", () => {
  const wire = chatWire();
  const tool = { name: "echo", description: "é", parameters: { type: "object", properties: {} } };
  const all = history([opaque(1), opaque(2), opaque(3)]);
  for (let length = 0; length <= all.length; length++) {
    const request: ChatRequest = {
      model: "m",
      messages: all.slice(0, length),
      tools: length % 2 ? [tool] : [],
    };
    const built = wire.buildRequest(request, {});
    const parts = built.parts!;
    const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    parts.reduce((at, part) => (joined.set(part, at), at + part.length), 0);
    assertEquals(new TextDecoder().decode(joined), JSON.stringify(built.body));
  }
});

Deno.test("WireMessages.joined() joins a list that grew, and one that did not, to the same bytes", () => {
  const cache = new WireMessages();
  const forms = [{ a: 1 }, { b: "é" }, { c: [2] }].map((form) => cache.bytes(form));
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assertEquals(text(cache.joined([])), "");
  assertEquals(text(cache.joined(forms.slice(0, 2))), `,{"a":1},{"b":"é"}`);
  assertEquals(text(cache.joined(forms)), `,{"a":1},{"b":"é"},{"c":[2]}`);
  // Not the last list plus more (a compaction): joined afresh.
  assertEquals(text(cache.joined([forms[2], forms[0]])), `,{"c":[2]},{"a":1}`);
  assertEquals(text(cache.joined([forms[2]])), `,{"c":[2]}`);
});
