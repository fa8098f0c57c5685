import { assertEquals } from "../../support/assert.ts";
import { answerFor, permissionOptions } from "../../../src/cli/acp/permission.ts";
import type { ApprovalRequest } from "../../../src/agent/policy/approval_request.ts";

const command: ApprovalRequest = {
  call: { id: "c1", name: "execute_command", arguments: '{"command":"npm test"}' },
  inspection: {
    effect: "exec",
    paths: [],
    sandboxed: false,
    summary: "npm test",
    preview: { kind: "command", command: "npm test" },
  },
};

Deno.test("permissionOptions() offers allow always only where the policy may remember the answer", () => {
  const need = {
    ask: true as const,
    why: "unsandboxed" as const,
    detail: "",
    flag: "--approve all" as const,
  };
  assertEquals(permissionOptions(command, { ...need, rememberable: true }), [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    {
      optionId: "allow_always",
      name: "Always allow this exact command (saves execute_command(npm test))",
      kind: "allow_always",
    },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ]);
  assertEquals(
    permissionOptions(command, { ...need, rememberable: false }).map((option) => option.kind),
    ["allow_once", "reject_once"],
  );
});

Deno.test("answerFor() reads the editor's choice as the REPL's answers; a cancelled question stops the turn", () => {
  const all = [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" as const },
    { optionId: "allow_always", name: "Always", kind: "allow_always" as const },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" as const },
  ];
  assertEquals(answerFor({ outcome: "selected", optionId: "allow_once" }, all), { kind: "once" });
  assertEquals(answerFor({ outcome: "selected", optionId: "allow_always" }, all, "edit_file"), {
    kind: "rule",
    rule: "edit_file",
  });
  assertEquals(answerFor({ outcome: "selected", optionId: "allow_always" }, all), { kind: "session" });
  assertEquals(answerFor({ outcome: "selected", optionId: "reject_once" }, all), { kind: "deny" });
  assertEquals(answerFor({ outcome: "cancelled" }, all), { kind: "abort" });
});

Deno.test("answerFor() counts only an offered option: allow_always where it was not offered is a rejection", () => {
  const offered = [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" as const },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" as const },
  ];
  assertEquals(answerFor({ outcome: "selected", optionId: "allow_always" }, offered, "rm x"), {
    kind: "deny",
  });
  assertEquals(answerFor({ outcome: "selected", optionId: "made_up" }, offered), { kind: "deny" });
  assertEquals(answerFor({ outcome: "selected", optionId: "allow_once" }, offered), { kind: "once" });
});
