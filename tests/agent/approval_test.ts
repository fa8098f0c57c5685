import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { type ApprovalRequest, createApprovalGate, needsApproval } from "../../src/agent/approval.ts";

const call = (name: string) => ({ id: "call_1", name, arguments: "{}" });

Deno.test("needsApproval() never asks for reads and follows the policy for edits and commands", () => {
  assertEquals(needsApproval("ask", "read"), false);
  assertEquals(needsApproval("ask", "write"), true);
  assertEquals(needsApproval("ask", "exec"), true);
  assertEquals(needsApproval("edits", "write"), false);
  assertEquals(needsApproval("edits", "exec"), true);
  assertEquals(needsApproval("all", "exec"), false);
});

Deno.test("createApprovalGate() without a human refuses and names the flag that allows the call", async () => {
  const gate = createApprovalGate("ask");
  const write = await gate({ call: call("edit_file"), effect: "write" });
  assert(!write.allow);
  assertStringIncludes(write.reason, "--approve edits");
  const exec = await gate({ call: call("execute_command"), effect: "exec" });
  assert(!exec.allow);
  assertStringIncludes(exec.reason, "--approve all");
  assertEquals(await gate({ call: call("read_file"), effect: "read" }), { allow: true });
});

Deno.test("createApprovalGate() asks the human and passes a no on as a denial", async () => {
  const asked: ApprovalRequest[] = [];
  const gate = createApprovalGate("edits", (request) => {
    asked.push(request);
    return Promise.resolve(false);
  });
  assertEquals(await gate({ call: call("write_file"), effect: "write" }), { allow: true });
  const decision = await gate({ call: call("execute_command"), effect: "exec" });
  assert(!decision.allow);
  assertStringIncludes(decision.reason, "denied");
  assertEquals(asked.length, 1);
});
