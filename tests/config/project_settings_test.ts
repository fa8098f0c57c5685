import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import {
  loadProjectSettings,
  OWN_SETTINGS_PATH,
  readSettings,
  saveRule,
} from "../../src/config/project_settings.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("loadProjectSettings() reads the rules; a missing file is none, broken JSON a warning", async () => {
  await using empty = await tempProject();
  assertEquals(await loadProjectSettings(empty.root), {
    permissions: { allow: [], deny: [] },
    mcpPassEnv: {},
    hooks: [],
    warnings: [],
  });
  await using broken = await tempProject({ ".tern/settings.json": "{ nope" });
  const loaded = await loadProjectSettings(broken.root);
  assertStringIncludes(loaded.warnings[0], ".tern/settings.json is not valid JSON");
});

Deno.test("saveRule() adds a rule and keeps the file's other keys", async () => {
  await using project = await tempProject({
    ".tern/settings.json": JSON.stringify({
      theme: "dark",
      permissions: { deny: ["execute_command(rm *)"] },
    }),
  });
  await saveRule(`${project.root}/.tern`, "allow", "execute_command(npm test*)");
  await saveRule(`${project.root}/.tern`, "allow", "execute_command(npm test*)");
  const data = JSON.parse(await Deno.readTextFile(`${project.root}/.tern/settings.json`));
  assertEquals(data, {
    theme: "dark",
    permissions: { deny: ["execute_command(rm *)"], allow: ["execute_command(npm test*)"] },
  });
  assertEquals((await loadProjectSettings(project.root)).permissions.allow, ["execute_command(npm test*)"]);
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
