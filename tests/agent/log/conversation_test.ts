import { assert, assertEquals } from "../../support/assert.ts";
import { Conversation, type Entry, SUMMARY_PREFIX } from "../../../src/agent/log/conversation.ts";
import { DROPPED_ARGUMENT, DROPPED_OUTPUT } from "../../../src/agent/log/compact.ts";

function withOneStep(): Conversation {
  const conversation = new Conversation({ systemPrompt: "be brief" });
  conversation.append({ kind: "user", text: "go" });
  const toolCalls = [{ id: "c1", name: "echo", arguments: JSON.stringify({ text: "x".repeat(300) }) }];
  conversation.append({
    kind: "assistant",
    message: { role: "assistant", content: "", reasoning: "r", toolCalls },
  });
  conversation.append({ kind: "tool_result", callId: "c1", name: "echo", content: "echoed", isError: false });
  return conversation;
}

Deno.test("Conversation.messages() starts with the system prompt and wraps tool results as untrusted data", () => {
  const conversation = withOneStep();
  const messages = conversation.messages();
  assertEquals(messages[0], { role: "system", content: "be brief" });
  assertEquals(messages[1], { role: "user", content: "go" });
  assertEquals(messages[3], {
    role: "tool",
    toolCallId: "c1",
    name: "echo",
    content: "<tool_result>echoed</tool_result>",
    isError: false,
  });
});

Deno.test("Conversation.messages() marks an error result so the model can tell it from a success", () => {
  const conversation = withOneStep();
  conversation.append({
    kind: "assistant",
    message: { role: "assistant", content: "", toolCalls: [{ id: "c2", name: "echo", arguments: "{}" }] },
  });
  conversation.append({
    kind: "tool_result",
    callId: "c2",
    name: "echo",
    content: "a.ts not found",
    isError: true,
    errorKind: "not_found",
  });
  const last = conversation.messages().at(-1)!;
  assertEquals(
    last.content,
    '<tool_result status="error">a.ts not found</tool_result>',
  );
});

Deno.test("a reminder is its own entry, sent after its result's wrapper, and the result entry stays as it was", () => {
  const conversation = withOneStep();
  const before = JSON.stringify(conversation.entries);
  conversation.append({ kind: "reminder", callId: "c1", text: "[tern reminder] stop repeating" });
  assertEquals(JSON.stringify(conversation.entries.slice(0, 3)), before);
  const result = conversation.messages()[3];
  assertEquals(
    result.content,
    "<tool_result>echoed</tool_result>\n\n[tern reminder] stop repeating",
  );
});

Deno.test("compaction is a projection: the log keeps every output, requests from then on drop it", () => {
  const conversation = withOneStep();
  conversation.append({ kind: "compaction", droppedOutputs: ["c1"], abbreviatedCalls: ["c1"] });
  const messages = conversation.messages();
  assertEquals(messages[3].content, DROPPED_OUTPUT);
  const call = messages[2].role === "assistant" ? messages[2].toolCalls![0] : undefined;
  assertEquals(call?.arguments, JSON.stringify({ text: DROPPED_ARGUMENT }));
  const kept = conversation.entries.find((entry) => entry.kind === "tool_result");
  assertEquals(kept?.kind === "tool_result" && kept.content, "echoed");
});

Deno.test("a cut output is a projection too: requests show its head and the note, the smallest cut wins", () => {
  const conversation = new Conversation({ systemPrompt: "s" });
  conversation.append({ kind: "user", text: "go" });
  const toolCalls = [{ id: "c1", name: "read_file", arguments: "{}" }];
  conversation.append({ kind: "assistant", message: { role: "assistant", content: "", toolCalls } });
  const content = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
  conversation.append({ kind: "tool_result", callId: "c1", name: "read_file", content, isError: false });
  const cut = (keepChars: number) => ({
    kind: "compaction" as const,
    droppedOutputs: [],
    abbreviatedCalls: [],
    cutOutputs: [{ callId: "c1", keepChars, savedAs: ".tern/tool-outputs/x.txt", exact: true }],
  });
  conversation.append(cut(40));
  conversation.append(cut(400));
  const shown = conversation.messages()[3].content;
  assertEquals(
    shown,
    "<tool_result>[Output cut to fit the context window: 5 line(s), 35 of its 791 characters, are shown; " +
      "the whole output is in .tern/tool-outputs/x.txt: read it with read_file from offset 6 (a limit in " +
      "lines) or search it with grep_code.]\nline 1\nline 2\nline 3\nline 4\nline 5\n… [756 characters " +
      "cut] …</tool_result>",
  );
  const kept = conversation.entries.find((entry) => entry.kind === "tool_result");
  assertEquals(kept?.kind === "tool_result" && kept.content, content);
  conversation.append({ kind: "compaction", droppedOutputs: ["c1"], abbreviatedCalls: [] });
  assertEquals(conversation.messages()[3].content, DROPPED_OUTPUT);
});

Deno.test("notices and compaction markers never reach the model", () => {
  const conversation = withOneStep();
  const count = conversation.messages().length;
  conversation.append({ kind: "notice", text: "Context: dropped 1 old tool output" });
  conversation.append({ kind: "compaction", droppedOutputs: [], abbreviatedCalls: [] });
  assertEquals(conversation.messages().length, count);
});

Deno.test("subscribe() sees each new entry once, in order, until unsubscribed (the seam sessions persist)", () => {
  const conversation = new Conversation({ systemPrompt: "s" });
  const seen: Entry[] = [];
  const stop = conversation.subscribe((entry) => seen.push(entry));
  conversation.append({ kind: "user", text: "a" });
  conversation.append({ kind: "notice", text: "b" });
  stop();
  conversation.append({ kind: "user", text: "c" });
  assertEquals(seen, [{ kind: "user", text: "a" }, { kind: "notice", text: "b" }]);
});

Deno.test("two projections of the same log are byte-identical (the provider's cache stays warm)", () => {
  const conversation = withOneStep();
  const first = JSON.stringify(conversation.messages());
  conversation.append({ kind: "notice", text: "nothing for the model" });
  assertEquals(JSON.stringify(conversation.messages()), first);
  conversation.append({ kind: "user", text: "next" });
  assert(
    JSON.stringify(conversation.messages()).startsWith(first.slice(0, -1)),
    "the new request extends the old",
  );
});

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

Deno.test("messages() sends a prompt's and a result's images, and none once compaction dropped the result", () => {
  const image = { mediaType: "image/png" as const, data: "iVBOR", name: "shot.png" };
  const conversation = new Conversation({ systemPrompt: "s" });
  conversation.append({ kind: "user", text: "look", images: [image] });
  const toolCalls = [{ id: "c1", name: "read_file", arguments: "{}" }];
  conversation.append({ kind: "assistant", message: { role: "assistant", content: "", toolCalls } });
  conversation.append({
    kind: "tool_result",
    callId: "c1",
    name: "read_file",
    content: "shot.png",
    isError: false,
    images: [image],
  });
  const [, user, , result] = conversation.messages();
  assertEquals([user, result], [
    { role: "user", content: "look", images: [image] },
    {
      role: "tool",
      toolCallId: "c1",
      name: "read_file",
      content: "<tool_result>shot.png</tool_result>",
      isError: false,
      images: [image],
    },
  ]);
  conversation.append({ kind: "compaction", droppedOutputs: ["c1"], abbreviatedCalls: [] });
  assertEquals(conversation.messages()[3], {
    role: "tool",
    toolCallId: "c1",
    name: "read_file",
    content: DROPPED_OUTPUT,
    isError: false,
  });
});

Deno.test("messages() gives the same objects request after request, new ones only for what a compaction changed", () => {
  const conversation = withOneStep();
  conversation.append({ kind: "reminder", callId: "c1", text: "[tern] a reminder" });
  const first = conversation.messages();
  conversation.append({ kind: "user", text: "again" });
  const second = conversation.messages();
  first.forEach((message, i) => assert(second[i] === message || message.role === "tool", `message ${i}`));
  // The result with its reminder is rebuilt each time, never by changing the kept result.
  assertEquals(second[3], first[3]);
  assert(!conversation.messages()[3].content.includes("a reminder\n\n[tern] a reminder"));
  conversation.append({ kind: "compaction", droppedOutputs: ["c1"], abbreviatedCalls: ["c1"] });
  const third = conversation.messages();
  assert(third[2] !== second[2] && third[3] !== second[3]);
  assertEquals(third[3].content, `${DROPPED_OUTPUT}\n\n[tern] a reminder`);
  // From then on the compacted forms are kept as well.
  const fourth = conversation.messages();
  assert(fourth[1] === third[1] && fourth[2] === third[2] && fourth[4] === third[4]);
});

Deno.test("live() hands out a copy: changing it changes no later answer", () => {
  const conversation = withOneStep();
  const live = conversation.live();
  live.indices.length = 0;
  assertEquals(conversation.live().indices, [0, 1, 2]);
  conversation.append({ kind: "rewind", to: 1 });
  assertEquals(conversation.live().indices, [0]);
});

Deno.test("messages() after an undo or a summary, asked before and after each, equals a fresh projection", () => {
  const conversation = withOneStep();
  const fresh = () =>
    new Conversation({ systemPrompt: "be brief", entries: conversation.entries }).messages();
  const steps: Entry[] = [
    { kind: "user", text: "more" },
    { kind: "rewind", to: 3 },
    { kind: "user", text: "after the undo" },
    { kind: "summary", text: "all so far", replaces: 4 },
    { kind: "user", text: "after the summary" },
    { kind: "notice", text: "only for the user" },
  ];
  for (const entry of steps) {
    conversation.messages();
    conversation.append(entry);
    assertEquals(conversation.messages(), fresh());
  }
  assertEquals(conversation.messages().map((m) => m.content), [
    "be brief",
    `${SUMMARY_PREFIX}\n\nall so far`,
    "after the undo",
    "after the summary",
  ]);
});
