import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { loadProjectSettings, saveRule } from "../../src/config/project_settings.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("loadProjectSettings() reads the rules; a missing file is none, broken JSON a warning", async () => {
  await using empty = await tempProject();
  assertEquals(await loadProjectSettings(empty.root), {
    permissions: { allow: [], deny: [] },
    mcpPassEnv: {},
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
