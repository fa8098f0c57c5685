import { assertEquals } from "../../support/assert.ts";
import { UpdateMapper } from "../../../src/cli/acp/updates.ts";

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
