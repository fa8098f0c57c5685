import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { loadProjectSettings, OWN_SETTINGS_PATH, readSettings } from "../../src/config/project_settings.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("loadProjectSettings() reads the rules; a missing file is none, broken JSON a warning", async () => {
  await using empty = await tempProject();
  assertEquals(await loadProjectSettings(empty.root), {
    permissions: { allow: [], deny: [], ask: [] },
    mcpPassEnv: {},
    hooks: [],
    warnings: [],
    files: [],
  });
  await using broken = await tempProject({ ".tern/settings.json": "{ nope" });
  const loaded = await loadProjectSettings(broken.root);
  assertStringIncludes(loaded.warnings[0], ".tern/settings.json is not valid JSON");
});

Deno.test("readSettings() reads hooks as Claude Code writes them, scoped by file, and warns about the rest", async () => {
  const hooks = {
    PreToolUse: [{
      matcher: "execute_command",
      hooks: [{ type: "command", command: "./check.sh", timeout: 5 }],
    }],
    Stop: [{ hooks: [{ type: "command", command: "./done.sh" }, { type: "prompt", prompt: "x" }] }],
    OnLunch: [],
    PostToolUse: [{ matcher: "edit_(", hooks: [{ type: "command", command: "fmt" }] }],
  };
  await using project = await tempProject({
    ".tern/settings.json": JSON.stringify({ hooks }),
    ".tern/local/settings.json": JSON.stringify({ hooks: { SessionStart: hooks.Stop } }),
  });
  const loaded = await loadProjectSettings(project.root);
  assertEquals(loaded.hooks, [
    {
      event: "PreToolUse",
      matcher: "execute_command",
      command: "./check.sh",
      timeoutMs: 5000,
      scope: "project",
      file: ".tern/settings.json",
    },
    {
      event: "Stop",
      matcher: "",
      command: "./done.sh",
      timeoutMs: 60_000,
      scope: "project",
      file: ".tern/settings.json",
    },
  ]);
  assertEquals(loaded.warnings, [
    '.tern/settings.json: hooks.Stop: a hook must be {"type": "command", "command": "..."}; skipped',
    ".tern/settings.json: hooks.OnLunch is not an event tern knows (PreToolUse, PostToolUse, " +
    "UserPromptSubmit, Stop, SessionStart, Notification)",
    '.tern/settings.json: hooks.PostToolUse: the matcher "edit_(" is not a valid regular expression',
  ]);
  const own = await readSettings(`${project.root}/.tern/local/settings.json`, OWN_SETTINGS_PATH);
  assertEquals(own.hooks.map((hook) => [hook.event, hook.scope, hook.file]), [
    ["SessionStart", "user", ".tern/local/settings.json"],
  ]);
});

Deno.test("loadProjectSettings() reads Claude Code's .claude/settings.json and settings.local.json too: rules, ask, hooks, statusLine", async () => {
  const group = (matcher: string, command: string) => ({ matcher, hooks: [{ type: "command", command }] });
  await using project = await tempProject({
    ".tern/settings.json": JSON.stringify({ permissions: { deny: ["execute_command(rm *)"] } }),
    ".claude/settings.json": JSON.stringify({
      permissions: { allow: ["Bash(npm test:*)"], ask: ["Write(deploy/**)"] },
      hooks: { PreToolUse: [group("Bash", "$CLAUDE_PROJECT_DIR/.claude/hooks/a.sh")] },
      statusLine: { type: "command", command: "./first.sh" },
      model: "claude-opus", // Claude Code's own keys are left alone, without a warning
    }),
    ".claude/settings.local.json": JSON.stringify({
      statusLine: { type: "command", command: "./mine.sh" },
      hooks: { Notification: [group("", "notify-send hi")] },
    }),
  });
  const loaded = await loadProjectSettings(project.root);
  assertEquals(loaded.permissions, {
    allow: ["Bash(npm test:*)"],
    deny: ["execute_command(rm *)"],
    ask: ["Write(deploy/**)"],
  });
  const from = { scope: "project", dialect: "claude", timeoutMs: 60_000 };
  assertEquals(loaded.hooks, [
    {
      event: "PreToolUse",
      matcher: "Bash",
      command: "$CLAUDE_PROJECT_DIR/.claude/hooks/a.sh",
      ...from,
      file: ".claude/settings.json",
    },
    {
      event: "Notification",
      matcher: "",
      command: "notify-send hi",
      ...from,
      file: ".claude/settings.local.json",
    },
    // One status line: the local file's, read last.
    {
      event: "StatusLine",
      matcher: "",
      command: "./mine.sh",
      ...from,
      timeoutMs: 5_000,
      file: ".claude/settings.local.json",
    },
  ]);
  assertEquals(loaded.files, [".tern/settings.json", ".claude/settings.json", ".claude/settings.local.json"]);
  assertEquals(loaded.warnings, []);
});

Deno.test("loadProjectSettings() skips a .claude folder that is a link out of the project", async () => {
  await using project = await tempProject();
  await Deno.writeTextFile(
    `${project.outside}/settings.json`,
    JSON.stringify({ permissions: { allow: ["Bash"] } }),
  );
  await Deno.symlink(project.outside, `${project.root}/.claude`);
  assertEquals((await loadProjectSettings(project.root)).permissions.allow, []);
});
