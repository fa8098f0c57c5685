import { assertEquals } from "../../support/assert.ts";
import { replayUpdates, UpdateMapper } from "../../../src/cli/acp/updates.ts";

Deno.test("UpdateMapper sends the plan as an ACP plan update (done is completed)", () => {
  const mapper = new UpdateMapper("/p");
  assertEquals(
    mapper.map({
      type: "plan",
      steps: [{ step: "read", status: "done" }, { step: "fix", status: "in_progress" }, {
        step: "test",
        status: "pending",
      }],
    }),
    [{
      sessionUpdate: "plan",
      entries: [
        { content: "read", priority: "medium", status: "completed" },
        { content: "fix", priority: "medium", status: "in_progress" },
        { content: "test", priority: "medium", status: "pending" },
      ],
    }],
  );
});

Deno.test("UpdateMapper shows a sub-agent's calls as tool calls tagged with the child's id, not its text", () => {
  const mapper = new UpdateMapper("/p");
  assertEquals(
    mapper.map({ type: "child_start", childId: "call_1", agent: "general", description: "read a" }),
    [],
  );
  const call = {
    type: "tool_call" as const,
    id: "c9",
    name: "read_file",
    arguments: '{"path":"a.txt"}',
    summary: "a.txt",
  };
  const _meta = { tern: { child_id: "call_1" } };
  assertEquals(mapper.map({ type: "child_event", childId: "call_1", event: call }), [{
    sessionUpdate: "tool_call",
    toolCallId: "call_1/c9",
    title: "general: read_file a.txt",
    kind: "read",
    status: "pending",
    locations: [{ path: "/p/a.txt" }],
    rawInput: { path: "a.txt" },
    _meta,
  }]);
  const result = {
    type: "tool_result" as const,
    id: "c9",
    name: "read_file",
    content: "alpha",
    isError: false,
  };
  const [update] = mapper.map({ type: "child_event", childId: "call_1", event: result });
  assertEquals([update.sessionUpdate, "toolCallId" in update && update.toolCallId, update._meta], [
    "tool_call_update",
    "call_1/c9",
    _meta,
  ]);
  assertEquals(
    mapper.map({ type: "child_event", childId: "call_1", event: { type: "text_delta", text: "x" } }),
    [],
  );
});

Deno.test("replayUpdates() shows a saved conversation as it streamed: thinking, titles, locations and diffs", () => {
  const entries = [
    { kind: "user" as const, text: "fix it" },
    {
      kind: "assistant" as const,
      message: {
        role: "assistant" as const,
        content: "",
        reasoning: "The greeting is wrong.",
        toolCalls: [{
          id: "e1",
          name: "edit_file",
          arguments: JSON.stringify({ path: "a.txt", old_text: "World", new_text: "Agent" }),
        }, { id: "c1", name: "execute_command", arguments: JSON.stringify({ command: "cat a.txt\nls" }) }],
      },
    },
    {
      kind: "tool_result" as const,
      callId: "e1",
      name: "edit_file",
      content: "Edited a.txt",
      isError: false,
    },
    {
      kind: "tool_result" as const,
      callId: "c1",
      name: "execute_command",
      content: "Hello Agent",
      isError: false,
    },
  ];
  const updates = replayUpdates("/p", entries as unknown as Parameters<typeof replayUpdates>[1]);
  assertEquals(updates.map((update) => update.sessionUpdate), [
    "user_message_chunk",
    "agent_thought_chunk",
    "tool_call",
    "tool_call",
    "tool_call_update",
    "tool_call_update",
  ]);
  const [, thought, edit, command, edited, ran] = updates;
  assertEquals(thought.sessionUpdate === "agent_thought_chunk" && thought.content, {
    type: "text",
    text: "The greeting is wrong.",
  });
  assertEquals(edit.sessionUpdate === "tool_call" && [edit.title, edit.locations], [
    "edit_file a.txt",
    [{ path: "/p/a.txt" }],
  ]);
  assertEquals(command.sessionUpdate === "tool_call" && command.title, "execute_command cat a.txt");
  assertEquals(edited.sessionUpdate === "tool_call_update" && edited.content, [
    { type: "diff", path: "/p/a.txt", oldText: "World", newText: "Agent" },
  ]);
  assertEquals(ran.sessionUpdate === "tool_call_update" && ran.content, [
    { type: "content", content: { type: "text", text: "Hello Agent" } },
  ]);
});
