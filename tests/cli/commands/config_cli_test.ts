import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runConfigCli } from "../../../src/cli/commands/config_cli.ts";
import { readOwnSettings, writeOwnSettings } from "../../../src/agent/state/own_settings.ts";
import { stateDir } from "../../../src/agent/state/tern_dir.ts";
import { tempProject } from "../../support/temp_project.ts";
import { runTern } from "../../support/cli.ts";

const EDIT = {
  hooks: {
    PreToolUse: [{ matcher: "execute_command", hooks: [{ type: "command", command: "./check.sh" }] }],
  },
  permissions: { allow: ["execute_command(npm test*)"] },
  mcp: { passEnv: { github: ["GITHUB_TOKEN"] } },
};

Deno.test("tern config sign shows what a hand-edited settings file grants and seals it only on a yes", async () => {
  await using project = await tempProject();
  await Deno.writeTextFile(`${stateDir(project.root, "")}/settings.json`, JSON.stringify(EDIT, null, 2));
  const printed: string[] = [];
  const print = (text: string) => (printed.push(text), 0);
  const shown: string[][] = [];
  const no = { ask: (lines: string[]) => (shown.push(lines), Promise.resolve(false)), terminal: true };
  assertEquals(await runConfigCli(project.root, ["sign"], print, no), 0);
  assertEquals(printed.at(-1), "nothing signed");
  assertEquals(readOwnSettings(project.root).settings, undefined);
  assertEquals(shown, [[
    "hook (runs with your permissions): PreToolUse execute_command: ./check.sh",
    "allow without asking: execute_command(npm test*)",
    "MCP server github may take: GITHUB_TOKEN",
  ]]);
  assertEquals(await runConfigCli(project.root, ["sign", "--yes"], print, no), 0);
  assertEquals(printed.at(-1), "signed .tern/local/settings.json: it applies from the next start");
  const own = readOwnSettings(project.root).settings!;
  assertEquals(own.hooks.map((hook) => hook.command), ["./check.sh"]);
  assertEquals(own.mcpPassEnv, { github: ["GITHUB_TOKEN"] });
  assertEquals(await runConfigCli(project.root, ["sign", "--yes"], print, no), 0);
  assertEquals(printed.at(-1), ".tern/local/settings.json is already signed");
});

Deno.test("tern config sign refuses bad usage, no file, a broken file, and no terminal without --yes", async () => {
  await using project = await tempProject();
  const print = () => 0;
  const never = { ask: () => Promise.reject(new Error("asked")), terminal: true };
  assertEquals(await runConfigCli(project.root, [], print, never), 2);
  assertEquals(await runConfigCli(project.root, ["sign", "--force"], print, never), 2);
  assertEquals(await runConfigCli(project.root, ["sign"], print, never), 2, "no settings file");
  const file = `${stateDir(project.root, "")}/settings.json`;
  await Deno.writeTextFile(file, "{ nope");
  assertEquals(await runConfigCli(project.root, ["sign", "--yes"], print, never), 2);
  await Deno.writeTextFile(file, "[1]");
  assertEquals(await runConfigCli(project.root, ["sign", "--yes"], print, never), 2);
  writeOwnSettings(project.root, EDIT);
  await Deno.writeTextFile(file, JSON.stringify(EDIT));
  // The real CLI, stdin not a terminal: it will not sign unasked.
  const run = await runTern({ cwd: project.root, args: ["config", "sign"] });
  assertEquals(run.code, 2, run.stderr);
  assertStringIncludes(run.stderr, "pass --yes to sign it unasked");
  assertEquals(readOwnSettings(project.root).settings, undefined);
  const signed = await runTern({ cwd: project.root, args: ["config", "sign", "--yes"] });
  assertEquals([signed.code, signed.stdout], [
    0,
    "signed .tern/local/settings.json: it applies from the next start\n",
  ]);
});
