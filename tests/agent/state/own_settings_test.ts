import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { readOwnSettings, saveOwnRule, writeOwnSettings } from "../../../src/agent/state/own_settings.ts";
import { sealJson, StateSeal } from "../../../src/agent/state/seal.ts";
import { stateDir } from "../../../src/agent/state/tern_dir.ts";
import { tempProject } from "../../support/temp_project.ts";

const HOOKS = {
  hooks: { SessionStart: [{ matcher: "", hooks: [{ type: "command", command: "touch x" }] }] },
};

Deno.test("readOwnSettings() uses the user's settings only as tern sealed them here", async () => {
  await using project = await tempProject();
  assertEquals(readOwnSettings(project.root), {});
  writeOwnSettings(project.root, HOOKS);
  const own = readOwnSettings(project.root);
  assertEquals(own.settings?.hooks.map((hook) => [hook.event, hook.command, hook.scope]), [
    ["SessionStart", "touch x", "user"],
  ]);
  assertEquals(own.note, undefined);
});

Deno.test("readOwnSettings() ignores, and says so, a settings file edited by hand, pulled, or sealed elsewhere", async () => {
  await using project = await tempProject();
  const file = `${stateDir(project.root, "")}/settings.json`;
  const forged = sealJson(new StateSeal(new Uint8Array(32)), "settings.json", HOOKS);
  writeOwnSettings(project.root, { permissions: { allow: ["read_file"] } });
  const edited = (await Deno.readTextFile(file)).replace('"read_file"', '"execute_command"');
  for (const text of [JSON.stringify(HOOKS), forged, edited, "not json"]) {
    await Deno.writeTextFile(file, text);
    const own = readOwnSettings(project.root);
    assertEquals(own.settings, undefined, text);
    assertStringIncludes(
      own.note!,
      "ignored .tern/local/settings.json: tern did not write it in this directory",
    );
    assertStringIncludes(own.note!, "`tern config sign`");
    assertEquals(await Deno.readTextFile(file), text, "left where it is: it may be the user's own edit");
  }
});

Deno.test("saveOwnRule() keeps a sealed file's keys, and never seals what it did not write", async () => {
  await using project = await tempProject();
  writeOwnSettings(project.root, { theme: "dark", permissions: { deny: ["execute_command(rm *)"] } });
  await saveOwnRule(project.root, "allow", "execute_command(npm test*)");
  await saveOwnRule(project.root, "allow", "execute_command(npm test*)");
  const own = readOwnSettings(project.root).settings!;
  assertEquals(own.permissions, {
    allow: ["execute_command(npm test*)"],
    deny: ["execute_command(rm *)"],
    ask: [],
  });
  // A pulled file with hooks: an "always allow" answer must not launder it into a sealed one.
  const file = `${project.root}/.tern/local/settings.json`;
  await Deno.writeTextFile(file, JSON.stringify(HOOKS));
  await saveOwnRule(project.root, "allow", "read_file");
  const after = readOwnSettings(project.root).settings!;
  assertEquals([after.hooks, after.permissions.allow], [[], ["read_file"]]);
  const aside = [...Deno.readDirSync(`${project.root}/.tern/local/aside`)].map((entry) => entry.name);
  assert(aside.some((name) => name.endsWith("-settings.json")), aside.join(" "));
});
