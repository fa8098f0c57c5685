/** Hooks in the loop: real hook commands (the user's, unsandboxed) around the fake tools and the fake model. */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runTask } from "../../../src/agent/loop/loop.ts";
import { createApprovalGate } from "../../../src/agent/policy/approval.ts";
import { Hooks } from "../../../src/agent/project/hooks.ts";
import type { HookConfig, HookEvent } from "../../../src/config/hook_settings.ts";
import type { Message } from "../../../src/llm/types.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { tempProject } from "../../support/temp_project.ts";
import { loopOptions, system, writeCalls } from "../loop/_loop_fixtures.ts";

function userHook(event: HookEvent, command: string, matcher = ""): HookConfig {
  return { event, matcher, command, timeoutMs: 30_000, scope: "user", file: ".tern/local/settings.json" };
}

function hooksIn(root: string, ...configs: HookConfig[]): Hooks {
  return new Hooks(configs, { root, sessionId: () => "session-1" });
}

const toolResult = (messages: Message[], index: number) =>
  messages[index] as Extract<Message, { role: "tool" }>;

Deno.test('runTask(): a PreToolUse hook\'s JSON "allow" lets a write run that would ask, and nobody is asked', async () => {
  writeCalls.length = 0;
  await using project = await tempProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "write_note", arguments: '{"text":"x"}' }] },
    { text: "Written." },
  ]);
  const asked: string[] = [];
  const approve = createApprovalGate(
    "ask",
    (request) => (asked.push(request.call.name), Promise.resolve(false)),
  );
  const hooks = hooksIn(project.root, userHook("PreToolUse", `echo '{"decision": "allow"}'`, "write_.*"));
  const result = await runTask(system(), "go", loopOptions(model, { approve, hooks, root: project.root }));
  assertEquals([result.exitReason, writeCalls, asked], ["done", ["x"], []]);
});

Deno.test("runTask(): a PreToolUse hook's matcher is a whole tool name or pattern; a JSON block gives its reason", async () => {
  writeCalls.length = 0;
  await using project = await tempProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "echo", arguments: '{"text":"hi"}' }] },
    { toolCalls: [{ name: "write_note", arguments: '{"text":"x"}' }] },
    { text: "Stopped." },
  ]);
  const hooks = hooksIn(
    project.root,
    userHook("PreToolUse", 'echo \'{"decision": "block", "reason": "not echo"}\'', "ech"),
    userHook(
      "PreToolUse",
      `echo '{"decision": "block", "reason": "notes are read-only"}'`,
      "write_note|edit",
    ),
  );
  const history = system();
  await runTask(history, "go", loopOptions(model, { hooks, root: project.root }));
  const messages = history.messages();
  assertEquals(toolResult(messages, 3).content.includes("echo: hi"), true, "`ech` does not match `echo`");
  assertStringIncludes(toolResult(messages, 5).content, "notes are read-only");
  assertEquals(writeCalls, []);
});

Deno.test("runTask(): PostToolUse hooks run after a call that succeeded, not after one that failed", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "explode", arguments: "{}" }] },
    { toolCalls: [{ name: "echo", arguments: '{"text":"hi"}' }] },
    { text: "Done." },
  ]);
  const hooks = hooksIn(project.root, userHook("PostToolUse", `grep -o '"tool_response":"[^"]*"'`));
  const history = system();
  await runTask(history, "go", loopOptions(model, { hooks, root: project.root }));
  const messages = history.messages();
  assert(!toolResult(messages, 3).content.includes("PostToolUse"));
  assertStringIncludes(toolResult(messages, 5).content, "[PostToolUse hook (.tern/local/settings.json): ");
  assertStringIncludes(toolResult(messages, 5).content, '"tool_response":"echo: hi"');
});

Deno.test("Hooks: a sub-agent's copy runs only the tool events; events carry the session id and cwd", async () => {
  await using project = await tempProject();
  const hooks = hooksIn(
    project.root,
    userHook("UserPromptSubmit", "cat"),
    userHook("Stop", "exit 2"),
  );
  const ctx = { signal: new AbortController().signal, warn: () => {} };
  const child = hooks.forChild();
  assertEquals(await child.userPromptSubmit("hi", ctx), { context: undefined });
  assertEquals(await child.stop("answer", 0, ctx), undefined);
  const context = (await hooks.userPromptSubmit("hi", ctx)).context!;
  const event = JSON.parse(context.split("\n").slice(1).join("\n"));
  assertEquals(event, {
    session_id: "session-1",
    transcript_path: null,
    cwd: project.root,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: "hi",
  });
  assertStringIncludes(
    (await hooks.stop("answer", 0, ctx))!,
    "sent you back to work: (the hook gave no reason)",
  );
});

Deno.test("Hooks: a PreToolUse hook's exit 2 blocks whatever it prints, and one that gives no verdict blocks too", async () => {
  await using project = await tempProject();
  const warnings: string[] = [];
  const ctx = {
    signal: new AbortController().signal,
    warn: (message: string) => void warnings.push(message),
  };
  const flood = `echo no rm here >&2; head -c ${6 * 1024 * 1024} /dev/zero | tr '\\0' x; exit 2`;
  const flooded = await hooksIn(project.root, userHook("PreToolUse", flood)).preToolUse(
    "execute_command",
    {},
    ctx,
  );
  assertStringIncludes(flooded.block!, "no rm here");
  const slow = { ...userHook("PreToolUse", "sleep 30; exit 0"), timeoutMs: 300 };
  const timedOut = await hooksIn(project.root, slow).preToolUse("execute_command", {}, ctx);
  assertStringIncludes(timedOut.block!, "the hook gave no verdict: it took longer than 0.3 s");
  assertStringIncludes(warnings.join("\n"), "killed, and the call it guards is blocked");
  const endless = { ...userHook("PreToolUse", "yes"), timeoutMs: 2_000 };
  assert((await hooksIn(project.root, endless).preToolUse("execute_command", {}, ctx)).block);
  const otherEvent = { ...userHook("UserPromptSubmit", "sleep 30"), timeoutMs: 300 };
  assertEquals((await hooksIn(project.root, otherEvent).userPromptSubmit("hi", ctx)).block, undefined);
});

Deno.test("Hooks.notification() runs the hooks whose matcher takes the notification type, with its message", async () => {
  await using project = await tempProject();
  const hooks = hooksIn(
    project.root,
    userHook("Notification", "cat > idle.json", "idle_prompt"),
    userHook("Notification", "cat > any.json"),
  );
  const ctx = { signal: new AbortController().signal, warn: () => {} };
  await hooks.notification("permission_prompt", "tern needs your approval: write_file a.txt", ctx);
  const any = JSON.parse(await Deno.readTextFile(`${project.root}/any.json`));
  assertEquals(any, {
    session_id: "session-1",
    cwd: project.root,
    hook_event_name: "Notification",
    notification_type: "permission_prompt",
    message: "tern needs your approval: write_file a.txt",
    title: "tern",
    permission_mode: "default",
    transcript_path: null,
  });
  assertEquals(await Deno.stat(`${project.root}/idle.json`).then(() => true, () => false), false);
  await hooks.notification("idle_prompt", "tern finished", ctx);
  assertEquals(
    JSON.parse(await Deno.readTextFile(`${project.root}/idle.json`)).notification_type,
    "idle_prompt",
  );
});
