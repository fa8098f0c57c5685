/** Hooks written for Claude Code: its tool names in matchers, its event fields, its decisions, its env. */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { Hooks } from "../../src/agent/project/hooks.ts";
import type { HookConfig } from "../../src/config/hook_settings.ts";
import { tempProject } from "../support/temp_project.ts";
import { PermissionRules } from "../../src/agent/policy/permission_rules.ts";
import { createApprovalGate } from "../../src/agent/policy/approval.ts";

function claudeHook(event: HookConfig["event"], command: string, matcher = ""): HookConfig {
  const from = { scope: "user", file: ".claude/settings.json", dialect: "claude" } as const;
  return { event, matcher, command, timeoutMs: 30_000, ...from };
}

function collect() {
  const warnings: string[] = [];
  return { warnings, ctx: { signal: new AbortController().signal, warn: (m: string) => warnings.push(m) } };
}

Deno.test("Hooks: a Claude Code hook matches Write|Edit on tern's tools and reads Claude Code's fields", async () => {
  await using project = await tempProject();
  const hooks = new Hooks([
    claudeHook(
      "PreToolUse",
      `cat > event.json; echo "$CLAUDE_PROJECT_DIR" > dir.txt`,
      "Write|Edit|MultiEdit",
    ),
    claudeHook("PreToolUse", "echo never > bash.txt", "Bash"),
  ], { root: project.root, sessionId: () => "s-1", mode: () => "edits" });
  const { ctx, warnings } = collect();
  assertEquals(await hooks.preToolUse("write_file", { path: "a.txt", content: "x" }, ctx), {});
  const event = JSON.parse(await Deno.readTextFile(`${project.root}/event.json`));
  assertEquals(event, {
    session_id: "s-1",
    transcript_path: null,
    cwd: project.root,
    permission_mode: "acceptEdits",
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: `${project.root}/a.txt`, content: "x" },
  });
  assertEquals(await Deno.readTextFile(`${project.root}/dir.txt`), `${project.root}\n`);
  assertEquals(await Deno.lstat(`${project.root}/bash.txt`).then(() => true, () => false), false);
  assertEquals(warnings, []);
});

Deno.test("Hooks: Claude Code's matchers: a regex anywhere in the name (mcp__.*), tern's own hooks take Bash", async () => {
  await using project = await tempProject();
  const block = (reason: string) => `echo '${reason}' >&2; exit 2`;
  const hooks = new Hooks([
    claudeHook("PreToolUse", block("no mcp"), "mcp__.*"),
    {
      ...claudeHook("PreToolUse", block("no bash"), "Bash"),
      dialect: undefined,
      file: ".tern/settings.json",
    },
  ], { root: project.root, sessionId: () => undefined });
  const { ctx } = collect();
  assertStringIncludes((await hooks.preToolUse("mcp__db__drop", {}, ctx)).block!, "no mcp");
  assertStringIncludes((await hooks.preToolUse("execute_command", { command: "ls" }, ctx)).block!, "no bash");
  assertEquals(await hooks.preToolUse("read_file", { path: "a" }, ctx), {});
});

Deno.test("Hooks: hookSpecificOutput deny blocks with its reason; ask outweighs allow; continue:false halts", async () => {
  await using project = await tempProject();
  const json = (value: unknown) => `echo '${JSON.stringify(value)}'`;
  const specific = (decision: string, reason: string) =>
    json({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: decision,
        permissionDecisionReason: reason,
      },
    });
  const hooks = new Hooks([
    claudeHook("PreToolUse", specific("deny", "secrets live there"), "Read"),
    claudeHook("PreToolUse", specific("allow", "fine"), "Write"),
    claudeHook("PreToolUse", specific("ask", "check the target"), "Write"),
    claudeHook("PreToolUse", json({ continue: false, stopReason: "frozen" }), "LS"),
  ], { root: project.root, sessionId: () => undefined });
  const { ctx } = collect();
  const read = await hooks.preToolUse("read_file", { path: ".env" }, ctx);
  assertStringIncludes(
    read.block!,
    "blocked by a PreToolUse hook (.claude/settings.json): secrets live there",
  );
  assertEquals(await hooks.preToolUse("write_file", { path: "a", content: "" }, ctx), {
    ask: "check the target",
  });
  assertStringIncludes((await hooks.preToolUse("list_dir", {}, ctx)).block!, "frozen");
});

Deno.test("Hooks: a failing hook's stderr reaches the human; a Stop hook's block is said to the human too", async () => {
  await using project = await tempProject();
  const hooks = new Hooks([
    claudeHook("PostToolUse", "python3-missing $CLAUDE_PROJECT_DIR/.claude/hooks/fmt.py", "Write"),
    claudeHook("Stop", "echo 'tests were not run' >&2; exit 2"),
  ], { root: project.root, sessionId: () => undefined });
  const { ctx, warnings } = collect();
  await hooks.postToolUse("write_file", { path: "a", content: "" }, "ok", ctx);
  assertStringIncludes(warnings[0], "failed with exit code 127");
  assertStringIncludes(warnings[0], "python3-missing: command not found");
  const reason = await hooks.stop("done", 0, ctx);
  assertStringIncludes(reason!, "sent you back to work: tests were not run");
  assertStringIncludes(warnings[1], "the Stop hook echo");
  assertStringIncludes(warnings[1], "tests were not run");
});

Deno.test("Hooks: a statusLine command gets the status JSON on stdin and its first line is kept", async () => {
  await using project = await tempProject();
  const script =
    `input=$(cat); printf '\\n[%s] %s\\nsecond line\\n' "$(echo "$input" | grep -o '"display_name":"[^"]*"')" "$CLAUDE_PROJECT_DIR"`;
  const hooks = new Hooks([claudeHook("StatusLine", script)], {
    root: project.root,
    sessionId: () => undefined,
  });
  const { ctx } = collect();
  const line = await hooks.statusLine({ model: { id: "m", display_name: "Fake" } }, ctx);
  assertEquals(line, `["display_name":"Fake"] ${project.root}`);
  assertEquals(
    await new Hooks([], { root: project.root, sessionId: () => undefined }).statusLine({}, ctx),
    undefined,
  );
  // Two configured (the user's, then the project's): only the last runs.
  const two = new Hooks([
    { ...claudeHook("StatusLine", "echo user > user-ran; echo USER"), scope: "user" },
    claudeHook("StatusLine", "echo PROJECT"),
  ], { root: project.root, sessionId: () => undefined });
  assertEquals(await two.statusLine({}, ctx), "PROJECT");
  assertEquals(await Deno.lstat(`${project.root}/user-ran`).then(() => true, () => false), false);
});

Deno.test("PermissionRules: Claude Code's Bash(npm test:*) allows npm test; ask rules ask even under --approve all", async () => {
  const rules = new PermissionRules({ allow: ["Bash(npm test:*)"], ask: ["Write(deploy/**)"] });
  const command = (text: string) => ({
    call: { id: "c", name: "execute_command", arguments: "{}" },
    inspection: {
      effect: "exec" as const,
      paths: [],
      summary: text,
      preview: { kind: "command" as const, command: text },
    },
  });
  assertEquals((await rules.match("allow", command("npm test --watch")))?.text, "Bash(npm test:*)");
  assertEquals(await rules.match("allow", command("npm publish")), undefined);
  const write = {
    call: { id: "w", name: "write_file", arguments: "{}" },
    inspection: { effect: "write" as const, paths: ["deploy/prod.yml"], summary: "deploy/prod.yml" },
  };
  const gate = createApprovalGate("all", undefined, { rules });
  const refused = await gate(write);
  assertEquals(refused.allow, false);
  assertStringIncludes((refused as { reason: string }).reason, 'the permission rule "ask Write(deploy/**)"');
  assertEquals(
    (await gate({ ...write, inspection: { effect: "write", paths: ["src/a.ts"], summary: "src/a.ts" } }))
      .allow,
    true,
  );
});
