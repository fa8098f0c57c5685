/** MCP servers in the REPL on a real terminal: start-up never waits, late tools join, approvals and tool lines. */
import { assert, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";
import { startTmux } from "../support/tmux.ts";
import { testNeeding } from "../support/requires.ts";

testNeeding(
  ["tmux", "bwrap"],
  "the REPL is ready while an MCP server starts; its tools join at the next prompt, asked with its real sandbox",
  async () => {
    await using project = await tempProject();
    const gate = `${project.root}/gate`; // inside the project: the sandboxed server sees it
    // The server's files inside the project too: the sandbox hides /tmp, where a clone of tern may live.
    await Deno.mkdir(`${project.root}/server`);
    for (const file of ["mcp_server.ts", "mcp_protocol.ts"]) {
      await Deno.copyFile(new URL(`../support/${file}`, import.meta.url), `${project.root}/server/${file}`);
    }
    const mcp = {
      mcpServers: {
        local: {
          command: Deno.execPath(),
          args: [
            "run",
            "-q",
            "--no-config",
            "--allow-read",
            `${project.root}/server/mcp_server.ts`,
            `gate=${gate}`,
          ],
        },
      },
    };
    await Deno.writeTextFile(`${project.root}/.mcp.json`, JSON.stringify(mcp));
    await using model = await startFakeModel([
      {
        toolCalls: [
          { name: "mcp__local__echo", arguments: '{"text":"hi"}' },
          { name: "mcp__local__add_note", arguments: '{"note":"remember"}' },
        ],
      },
      { text: "Done." },
    ]);
    // A wait of ten minutes allowed: a REPL that waited for the gated server would not show its prompt.
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model TERN_MCP_STARTUP_MS=600000`;
    await using tern = await startTmux(
      `cd ${project.root} && env ${env} ${await ternCommandLine()} --trust-project`,
    );
    const banner = await tern.waitFor("ask ›");
    assertStringIncludes(banner, "1 MCP server starting (their tools join at your next prompt once ready");
    await tern.send("/mcp", "Enter");
    await tern.waitFor(
      "local (stdio, sandboxed: writes only in the project and your HOME, network on): starting",
    );
    await Deno.writeTextFile(gate, "");
    let ready = false;
    for (let tries = 0; tries < 600 && !ready; tries++) {
      await tern.send("/mcp", "Enter");
      ready = (await tern.screen()).includes("on): ready · 3 tools");
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert(ready, await tern.screen());
    await tern.send("use the local server", "Enter");
    const asked = await tern.waitFor("Run local › add_note?");
    assertStringIncludes(asked, 'MCP server "local" is ready: its 2 tools join this conversation');
    assertStringIncludes(asked, '⏺ local › echo text="hi"\n');
    assertStringIncludes(asked, "⎿ ok 1 line, 8 B · 1 image (not shown)");
    assertStringIncludes(
      asked,
      "MCP tool (local runs sandboxed: writes only in the project and your HOME, network on):",
    );
    assert(!asked.includes("UNSANDBOXED"), asked);
    await tern.send("1");
    const done = await tern.waitFor("Done.");
    assertStringIncludes(done, '⏺ local › add_note note="remember"');
    assertStringIncludes(done, "⎿ ok 1 line, 5 B");
    const tools = (model.requests[0].tools as { function: { name: string } }[]).map((t) => t.function.name);
    assert(tools.includes("mcp__local__echo"), tools.join(","));
    await tern.send("C-d");
    assert(await tern.waitForExit(), "tern exits on Ctrl-D");
  },
);
