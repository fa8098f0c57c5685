import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import {
  type ApprovalAnswer,
  type ApprovalPolicy,
  ApprovalSession,
  type AskReason,
  assessRequest,
  createApprovalGate,
  denialText,
  protectedPathReason,
} from "../../../src/agent/policy/approval.ts";
import type { ApprovalRequest } from "../../../src/agent/policy/approval_request.ts";
import type { ToolEffect } from "../../../src/tools/tool.ts";

let nextId = 0;

/** A request as the loop builds it: the call, and its tool's inspection (the policy reads only the latter). */
function request(name: string, effect: ToolEffect, paths: string[], sandboxed?: boolean): ApprovalRequest {
  const call = { id: `call_${++nextId}`, name, arguments: JSON.stringify({ paths }) };
  return { call, inspection: { effect, paths, sandboxed, summary: paths.join(" ") } };
}

const read = () => request("read_file", "read", ["src/a.ts"]);
const edit = (path = "src/a.ts") => request("edit_file", "write", [path]);
const sandboxedCommand = () => request("execute_command", "exec", [], true);
const networkCommand = () => request("execute_command", "network", [], true);
const unsandboxedCommand = () => request("execute_command", "exec", [], false);
const mcpTool = () => {
  const base = request("mcp__fs__write_file", "exec", [], true);
  const server = { name: "fs", runsIn: "sandboxed: writes only in the project and your HOME, network on" };
  return { ...base, inspection: { ...base.inspection, server } };
};
const destructiveCommand = () => {
  const base = request("execute_command", "exec", [], true);
  return { ...base, inspection: { ...base.inspection, destructive: "git clean -f deletes untracked files" } };
};

type Row = [ApprovalPolicy, string, () => ApprovalRequest, AskReason | "runs", string?];

/** Every row of the policy: what runs, what asks and why, and the flag that would allow it. */
const POLICY_TABLE: Row[] = [
  ["ask", "a read", read, "runs"],
  ["ask", "an edit", edit, "edit", "--approve edits"],
  ["ask", "an edit of a protected path", () => edit(".env"), "protected_path", "--approve all"],
  ["ask", "a sandboxed command without network", sandboxedCommand, "runs"],
  ["ask", "a sandboxed command asking for network", networkCommand, "network", "--approve all"],
  ["ask", "an unsandboxed command", unsandboxedCommand, "unsandboxed", "--approve all"],
  ["ask", "a sandboxed command that deletes work", destructiveCommand, "destructive", "--approve all"],
  ["ask", "a sandboxed MCP server's tool", mcpTool, "mcp", "--approve all"],
  ["edits", "a read", read, "runs"],
  ["edits", "an edit", edit, "runs"],
  ["edits", "an edit of a protected path", () => edit(".git/config"), "protected_path", "--approve all"],
  ["edits", "a sandboxed command without network", sandboxedCommand, "runs"],
  ["edits", "a sandboxed command asking for network", networkCommand, "network", "--approve all"],
  ["edits", "an unsandboxed command", unsandboxedCommand, "unsandboxed", "--approve all"],
  ["edits", "a sandboxed command that deletes work", destructiveCommand, "destructive", "--approve all"],
  ["edits", "a sandboxed MCP server's tool", mcpTool, "mcp", "--approve all"],
  ["all", "a read", read, "runs"],
  ["all", "an edit", edit, "runs"],
  ["all", "an edit of a protected path", () => edit(".github/workflows/ci.yml"), "runs"],
  ["all", "a sandboxed command asking for network", networkCommand, "runs"],
  ["all", "an unsandboxed command", unsandboxedCommand, "runs"],
  ["all", "a sandboxed command that deletes work", destructiveCommand, "runs"],
  ["all", "a sandboxed MCP server's tool", mcpTool, "runs"],
];

Deno.test("assessRequest() follows the policy table for every policy and kind of call", () => {
  for (const [policy, what, make, expected, flag] of POLICY_TABLE) {
    const verdict = assessRequest(policy, make());
    const label = `--approve ${policy}, ${what}`;
    if (expected === "runs") {
      assertEquals(verdict, { ask: false }, label);
      continue;
    }
    assert(verdict.ask, `${label} should ask`);
    assertEquals([verdict.why, verdict.flag], [expected, flag], label);
    assertEquals(verdict.rememberable, ["edit", "unsandboxed", "mcp"].includes(expected), label);
  }
});

Deno.test("assessRequest() states where an MCP server runs, not 'outside the sandbox'", () => {
  const verdict = assessRequest("ask", mcpTool());
  assert(verdict.ask);
  assertEquals(
    verdict.detail,
    'a tool of the MCP server "fs" (sandboxed: writes only in the project and your HOME, network on)',
  );
});

Deno.test("assessRequest() treats a request without sandbox information as unsandboxed", () => {
  const verdict = assessRequest("edits", {
    call: { id: "1", name: "execute_command", arguments: '{"command":"ls"}' },
    inspection: { effect: "exec", paths: [], summary: "ls" },
  });
  assert(verdict.ask);
  assertEquals(verdict.why, "unsandboxed");
});

Deno.test("assessRequest() checks every path the tool resolved, so a symlink cannot hide .git", () => {
  const aliased = request("write_file", "write", ["notes.md", ".git/hooks/pre-commit"]);
  const verdict = assessRequest("edits", aliased);
  assert(verdict.ask);
  assertEquals(verdict.why, "protected_path");
  assertStringIncludes(verdict.detail, ".git/hooks/pre-commit is a protected path");
});

const PROTECTED: string[] = [
  ".git/config",
  ".git/hooks/pre-commit",
  ".git",
  "./.git/HEAD",
  "src/../.git/config",
  "vendor/lib/.git/config",
  ".GIT/config",
  ".env",
  ".env.local",
  ".env.example",
  "packages/api/.env.production",
  ".tern/tool-outputs/out-1.txt",
  ".github/workflows/ci.yml",
  ".github/actions/setup/action.yml",
  ".gitlab-ci.yml",
  ".circleci/config.yml",
  ".ci/build.sh",
  ".bashrc",
  ".zshrc",
  ".profile",
  ".bash_profile",
  ".zprofile",
  ".envrc",
  ".husky/pre-commit",
  "Jenkinsfile",
  "/home/me/proj/.git/config",
  ".git\\config",
  ".mcp.json",
  "AGENTS.md",
  "CLAUDE.md",
  ".claude/skills/x/SKILL.md",
];

const NOT_PROTECTED: string[] = [
  "src/main.ts",
  ".gitignore",
  ".gitattributes",
  ".github/CODEOWNERS",
  ".github/dependabot.yml",
  "docs/.envelope.md",
  "environment.ts",
  ".env/lib/site.py", // a Python virtualenv named .env: its files are not the secrets file
  "my.git/x",
  "src/bashrc.ts",
  "tern/notes.md",
];

Deno.test("protectedPathReason() protects git data, env files, tern data, CI files and shell rc files", () => {
  for (const path of PROTECTED) {
    assert(protectedPathReason(path) !== undefined, `${path} should be protected`);
  }
  for (const path of NOT_PROTECTED) assertEquals(protectedPathReason(path), undefined, path);
  assertStringIncludes(protectedPathReason(".env.local")!, "secrets");
  assertStringIncludes(protectedPathReason(".github/workflows/ci.yml")!, "CI");
});

Deno.test("createApprovalGate() without a human refuses what would ask and names the flag that allows it", async () => {
  const cases: [ApprovalPolicy, ApprovalRequest, string][] = [
    ["ask", edit(), "--approve edits"],
    ["ask", edit(".env"), "--approve all"],
    ["ask", unsandboxedCommand(), "--approve all"],
    ["ask", networkCommand(), "--approve all"],
    ["edits", edit(".github/workflows/release.yml"), "--approve all"],
    ["edits", unsandboxedCommand(), "--approve all"],
  ];
  for (const [policy, call, flag] of cases) {
    const decision = await createApprovalGate(policy)(call);
    assert(!decision.allow, `${policy} ${call.call.arguments} should be refused`);
    assertStringIncludes(decision.reason, `rerunning tern with ${flag}, or by running tern on a terminal`);
    assertStringIncludes(decision.reason, `${call.call.name} was not run`);
    assertEquals(decision.abort, undefined);
  }
  assertStringIncludes(
    ((await createApprovalGate("ask")(edit(".env"))) as { reason: string }).reason,
    ".env is a protected path",
  );
});

Deno.test("createApprovalGate() without a human runs what the policy allows", async () => {
  assertEquals(await createApprovalGate("ask")(read()), { allow: true });
  assertEquals(await createApprovalGate("ask")(sandboxedCommand()), { allow: true });
  assertEquals(await createApprovalGate("edits")(edit()), { allow: true });
  assertEquals(await createApprovalGate("all")(edit(".git/config")), { allow: true });
});

/** A human who gives the scripted answers in turn and records what they were asked. */
function scriptedHuman(answers: (ApprovalAnswer | boolean)[]) {
  const asked: string[] = [];
  const ask = (request: ApprovalRequest) => {
    asked.push(request.call.name);
    const answer = answers.shift();
    if (answer === undefined) throw new Error("asked more often than scripted");
    return Promise.resolve(answer);
  };
  return { ask, asked };
}

Deno.test("createApprovalGate() stops asking for a tool after 'don't ask again' for the session", async () => {
  const human = scriptedHuman([{ kind: "session" }]);
  const session = new ApprovalSession();
  const gate = createApprovalGate("ask", human.ask, { session });
  assertEquals(await gate(edit("src/a.ts")), { allow: true });
  assertEquals(await gate(edit("src/b.ts")), { allow: true });
  assertEquals(human.asked, ["edit_file"]);
  assertEquals(session.list(), ["edit_file"]);
  // The session outlives one gate: the REPL builds a gate per task and passes the same session.
  assertEquals(await createApprovalGate("ask", human.ask, { session })(edit("src/c.ts")), { allow: true });
});

Deno.test("createApprovalGate() session approval never covers protected paths or network", async () => {
  const human = scriptedHuman([{ kind: "session" }, true, { kind: "session" }, true, true]);
  const gate = createApprovalGate("ask", human.ask);
  await gate(edit());
  await gate(edit(".git/hooks/pre-push"));
  await gate(unsandboxedCommand());
  await gate(networkCommand());
  await gate(networkCommand());
  assertEquals(human.asked, [
    "edit_file",
    "edit_file",
    "execute_command",
    "execute_command",
    "execute_command",
  ]);
});

Deno.test("createApprovalGate() never lets 'don't ask again' cover unconfined commands (they always ask)", async () => {
  const human = scriptedHuman([{ kind: "session" }, true]);
  const session = new ApprovalSession();
  const gate = createApprovalGate("ask", human.ask, { session });
  assertEquals(await gate(unsandboxedCommand()), { allow: true });
  assertEquals(await gate(unsandboxedCommand()), { allow: true });
  assertEquals(human.asked, ["execute_command", "execute_command"]);
  assertEquals(session.list(), []);
});

Deno.test("createApprovalGate() does not remember a session answer given for a protected path", async () => {
  const human = scriptedHuman([{ kind: "session" }, true]);
  const gate = createApprovalGate("ask", human.ask);
  assertEquals(await gate(edit(".envrc")), { allow: true });
  assertEquals(await gate(edit("src/a.ts")), { allow: true });
  assertEquals(human.asked, ["edit_file", "edit_file"]);
});

Deno.test("createApprovalGate() passes the user's reason for a denial on to the model", async () => {
  const human = scriptedHuman([{ kind: "deny", reason: "use tabs, not spaces" }, { kind: "deny" }, false]);
  const gate = createApprovalGate("ask", human.ask);
  assertEquals(await gate(edit()), {
    allow: false,
    reason: "The user denied this call: use tabs, not spaces",
  });
  assertEquals(await gate(edit()), { allow: false, reason: denialText() });
  assertEquals(await gate(edit()), { allow: false, reason: denialText("   ") });
  assertStringIncludes(denialText(), "Do not retry it unchanged");
});

Deno.test("createApprovalGate() answers 'abort this turn' with a denial the loop must turn into a cancel", async () => {
  const human = scriptedHuman([{ kind: "abort" }]);
  const decision = await createApprovalGate("ask", human.ask)(unsandboxedCommand());
  assertEquals(decision, {
    allow: false,
    abort: true,
    reason: "cancelled by the user: the turn was stopped at the prompt",
  });
});

Deno.test("createApprovalGate() tells the human why it asks and whether it may be remembered", async () => {
  const needs: unknown[] = [];
  const gate = createApprovalGate("edits", (_request, need) => {
    needs.push([need.why, need.rememberable]);
    return Promise.resolve(true);
  });
  await gate(edit(".tern/x"));
  await gate(unsandboxedCommand());
  await gate(networkCommand());
  assertEquals(needs, [["protected_path", false], ["unsandboxed", true], ["network", false]]);
});

Deno.test("createApprovalGate() in plan mode runs reads and refuses everything else without asking, even 'all' rules", async () => {
  let asked = 0;
  const session = new ApprovalSession();
  session.allow("edit_file");
  const gate = createApprovalGate("plan", () => Promise.resolve((asked++, true)), { session });
  assertEquals(await gate(read()), { allow: true });
  for (const call of [edit(), sandboxedCommand(), networkCommand()]) {
    const decision = await gate(call);
    assert(!decision.allow);
    assertStringIncludes(decision.reason, "plan mode is on, so only read-only tools run");
  }
  assertEquals(asked, 0);
});

Deno.test("createApprovalGate() without a human words its refusal as the caller says (a sub-agent's)", async () => {
  const gate = createApprovalGate("ask", undefined, {
    refusal: (req, need) => `${req.call.name}: ${need.why}`,
  });
  assertEquals(await gate(edit()), { allow: false, reason: "edit_file: edit", needs: "--approve edits" });
});
