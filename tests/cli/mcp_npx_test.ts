/**
 * A real MCP server from npm, configured as its README says: `npx -y @modelcontextprotocol/server-filesystem .`
 * in `.mcp.json`. When the npm registry cannot be reached, the package's installed bin is used instead (the
 * one `.ci/run` installs under ~/.cache/tern-ci/mcp); with neither, the tests are skipped and say why.
 */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { runTern } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";
import { whyMissing } from "../support/requires.ts";

const PACKAGE = "@modelcontextprotocol/server-filesystem";
const HOME = Deno.env.get("HOME") ?? "/root";
/** Where `.ci/run` installs the package for machines without the registry. */
const INSTALLED = `${HOME}/.cache/tern-ci/mcp/node_modules/.bin/mcp-server-filesystem`;

/** How this machine can run the server: the README's npx form, the installed bin, or why neither. */
function serverEntry(): { entry: { command: string; args: string[] }; form: string } | string {
  try {
    const asked = new Deno.Command("timeout", {
      args: ["30", "npm", "view", PACKAGE, "version"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    if (asked.success) return { entry: { command: "npx", args: ["-y", PACKAGE, "."] }, form: "npx" };
  } catch { /* no npm, or no timeout: try the installed bin */ }
  try {
    Deno.statSync(INSTALLED);
    return { entry: { command: INSTALLED, args: ["."] }, form: "installed bin" };
  } catch {
    return `the npm registry is unreachable and ${PACKAGE} is not installed (.ci/run installs it)`;
  }
}

const server = serverEntry();

function mcpTest(
  name: string,
  needsBwrap: boolean,
  fn: (entry: { command: string; args: string[] }) => Promise<void>,
) {
  const missing = [typeof server === "string" ? server : null, needsBwrap ? whyMissing("bwrap") : null]
    .filter((why): why is string => why !== null);
  if (missing.length > 0 || typeof server === "string") {
    Deno.test({ name: `${name} (skipped: ${missing.join("; ")})`, ignore: true, fn: () => {} });
  } else Deno.test(`${name} (${server.form})`, () => fn(server.entry));
}

type Message = { role: string; content: string };

mcpTest(
  "the README's npx form of server-filesystem starts for a trusted project, and its tools work",
  false,
  async (entry) => {
    await using project = await tempProject({ "hello.txt": "hi\n" });
    await Deno.writeTextFile(
      `${project.root}/.mcp.json`,
      JSON.stringify({ mcpServers: { filesystem: entry } }),
    );
    await using model = await startFakeModel([
      {
        toolCalls: [{
          name: "mcp__filesystem__list_directory",
          arguments: JSON.stringify({ path: project.root }),
        }],
      },
      { text: "Done." },
    ]);
    const run = await runTern({
      cwd: project.root,
      args: ["-p", "list the files with the filesystem server", "--trust-project", "--approve", "all"],
      // The first npx run downloads the package: the wait allowed is generous.
      env: {
        TERN_BASE_URL: model.url,
        TERN_API_KEY: "k",
        TERN_MODEL: "fake-model",
        TERN_MCP_STARTUP_MS: "180000",
      },
    });
    assertEquals([run.code, run.stdout], [0, "Done.\n"], run.stderr);
    assertStringIncludes(run.stderr, 'MCP server "filesystem" is ready');
    const messages = model.requests[1].messages as Message[];
    const listed = messages.find((message) => message.role === "tool")?.content ?? "";
    assertStringIncludes(listed, "[FILE] hello.txt");
  },
);

mcpTest(
  "an untrusted project's npx server fails at once in the strict sandbox, saying why and which key changes it",
  true,
  async (entry) => {
    await using project = await tempProject();
    await Deno.writeTextFile(
      `${project.root}/.mcp.json`,
      JSON.stringify({ mcpServers: { filesystem: entry } }),
    );
    await using model = await startFakeModel([{ text: "ok" }]);
    const run = await runTern({
      cwd: project.root,
      args: ["-p", "list the files with the filesystem server", "--trust-project-mcp"],
      env: {
        TERN_BASE_URL: model.url,
        TERN_API_KEY: "k",
        TERN_MODEL: "fake-model",
        TERN_MCP_STARTUP_MS: "180000",
      },
    });
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(
      run.stderr,
      'MCP server "filesystem" failed: the server stopped (it said: ',
    );
    assertStringIncludes(
      run.stderr,
      "it ran in the strict sandbox (writes only in the project, a private HOME, no network)",
    );
    assertStringIncludes(
      run.stderr,
      '"network": true gives it the network, "sandbox": false runs it outside the sandbox',
    );
    assertStringIncludes(
      run.stderr,
      "or trust the project for your HOME and the network (pass --trust-project",
    );
  },
);
