import { assertEquals } from "../support/assert.ts";
import { Conversation, type Entry, SUMMARY_PREFIX } from "../../src/agent/conversation.ts";

const say = (content: string): Entry => ({ kind: "assistant", message: { role: "assistant", content } });

Deno.test("messages() leaves out the turns a rewind undid, and a second rewind goes one more back", () => {
  const conversation = new Conversation({ systemPrompt: "s" });
  for (
    const entry of [{ kind: "snapshot", tree: "t1" }, { kind: "user", text: "one" }, say("1")] as Entry[]
  ) {
    conversation.append(entry);
  }
  for (
    const entry of [{ kind: "snapshot", tree: "t2" }, { kind: "user", text: "two" }, say("2")] as Entry[]
  ) {
    conversation.append(entry);
  }
  conversation.append({ kind: "rewind", to: 3 });
  assertEquals(conversation.messages().map((message) => message.content), ["s", "one", "1"]);
  conversation.append({ kind: "rewind", to: 0 });
  assertEquals(conversation.messages().map((message) => message.content), ["s"]);
  assertEquals(conversation.entries.length, 8);
});

Deno.test("messages() sends the latest summary in place of the entries it replaces", () => {
  const conversation = new Conversation({
    systemPrompt: "s",
    entries: [
      { kind: "user", text: "old" },
      say("old answer"),
      { kind: "user", text: "new" },
      say("new answer"),
    ],
  });
  conversation.append({ kind: "summary", text: "first", replaces: 2 });
  conversation.append({ kind: "user", text: "after" });
  assertEquals(conversation.messages().map((message) => message.content), [
    "s",
    `${SUMMARY_PREFIX}\n\nfirst`,
    "new",
    "new answer",
    "after",
  ]);
  conversation.append({ kind: "summary", text: "second", replaces: 5 });
  assertEquals(conversation.messages().map((message) => message.content), [
    "s",
    `${SUMMARY_PREFIX}\n\nsecond`,
    "after",
  ]);
});

Deno.test("a Conversation built from saved entries tells no subscriber about them", () => {
  const seen: Entry[] = [];
  const conversation = new Conversation({ systemPrompt: "s", entries: [{ kind: "user", text: "x" }] });
  conversation.subscribe((entry) => seen.push(entry));
  conversation.append({ kind: "user", text: "y" });
  assertEquals(seen, [{ kind: "user", text: "y" }]);
  assertEquals(conversation.entries.length, 2);
});
