/**
 * Hooks and background processes in the REPL on a real terminal (tmux), read off the screen as a person sees
 * them: a hook that blocks rm, `/hooks`, a server started in the background, `/ps`, and Ctrl-D leaving
 * nothing running.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { eventually, processesWith, sleepMarker } from "../support/processes.ts";
import { testNeeding } from "../support/requires.ts";
import { tempProject } from "../support/temp_project.ts";
import { startTmux } from "../support/tmux.ts";
import { writeOwnSettings } from "../../src/agent/state/own_settings.ts";

const BLOCK_RM = `grep -q '"command":"rm ' && { echo 'rm is not allowed here' >&2; exit 2; }; exit 0`;

testNeeding(
  ["tmux"],
  "REPL: a hook blocks rm and /hooks says where it comes from; /ps lists a background server, Ctrl-D kills it",
  async () => {
    await using project = await tempProject({ "keep.txt": "precious\n" });
    const settings = {
      hooks: {
        PreToolUse: [{ matcher: "execute_command", hooks: [{ type: "command", command: BLOCK_RM }] }],
      },
    };
    writeOwnSettings(project.root, settings);
    const marker = sleepMarker(64);
    const call = (name: string, args: unknown) => ({
      toolCalls: [{ name, arguments: JSON.stringify(args) }],
    });
    await using model = await startFakeModel([
      call("execute_command", { command: "rm keep.txt" }),
      { text: "A hook forbids rm." },
      call("execute_command", { command: `echo serving; exec sleep ${marker}`, background: true }),
      call("command_output", { id: "bg1", wait_ms: 30_000 }),
      { text: "The server runs as bg1." },
    ]);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
    await using tern = await startTmux(
      `cd ${project.root} && env ${env} ${await ternCommandLine()} --approve all`,
    );
    const banner = await tern.waitFor("all ›");
    assertStringIncludes(banner, "hooks: PreToolUse (/hooks lists them)");
    await tern.send("/hooks", "Enter");
    const listed = await tern.waitFor("time limit 60 s");
    assertStringIncludes(listed, `PreToolUse execute_command: grep -q`);
    assertStringIncludes(
      listed,
      ".tern/local/settings.json (yours: runs with your permissions, outside the sandbox)",
    );
    await tern.waitFor("all ›", { count: 2 });
    await tern.send("remove keep.txt", "Enter");
    const blocked = await tern.waitFor("A hook forbids rm.");
    assertStringIncludes(
      blocked,
      "blocked by a PreToolUse hook (.tern/local/settings.json): rm is not allowed here",
    );
    assertEquals(await Deno.readTextFile(join(project.root, "keep.txt")), "precious\n");
    await tern.waitFor("all ›", { count: 3 });
    await tern.send("start the server", "Enter");
    const started = await tern.waitFor("The server runs as bg1.");
    assertStringIncludes(started, `execute_command echo serving; exec sleep ${marker} &`);
    assertStringIncludes(started, "ok serving");
    await tern.waitFor("all ›", { count: 4 });
    await tern.send("/ps", "Enter");
    const ps = await tern.waitFor("They are killed when tern exits.");
    assertStringIncludes(ps, `bg1  running · `);
    assertStringIncludes(ps, `echo serving; exec sleep ${marker}`);
    assert((await processesWith(marker)).length > 0, "the server runs while tern does");
    await tern.send("C-d");
    assert(await tern.waitForExit(), "tern exits on Ctrl-D");
    assert(
      await eventually(async () => (await processesWith(marker)).length === 0),
      "the server outlived tern",
    );
  },
);
