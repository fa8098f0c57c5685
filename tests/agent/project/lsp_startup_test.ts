import { assertEquals } from "../../support/assert.ts";
import { projectServerLines, setUpDiagnostics } from "../../../src/agent/project/lsp_startup.ts";
import { LspDiagnostics } from "../../../src/tools/lsp/diagnostics.ts";
import type { ProjectTrust } from "../../../src/agent/policy/project_trust.ts";

const NOTHING: ProjectTrust = { project: true, endpoint: true, mcp: true, how: "nothing_to_trust" };
const FLAG: ProjectTrust = { project: true, endpoint: true, mcp: true, how: "flag" };
const planted = { planted: { command: ["./bin/run-me"], extensions: [".x"] }, python: false };

function setUp(trust: ProjectTrust, own: unknown, project: unknown, env: Record<string, string> = {}) {
  const warnings: string[] = [];
  const service = setUpDiagnostics({
    root: "/nonexistent",
    sandbox: "auto",
    trust,
    own,
    project,
    env,
    warn: (line) => warnings.push(line),
  });
  const options = (service as LspDiagnostics | undefined)?.options;
  const names = options?.settings.servers.map((server) => server.name);
  return { service, options, names, warnings };
}

Deno.test("setUpDiagnostics(): a project with nothing to trust gets no server of its own and the strict sandbox", () => {
  const { options, names } = setUp(NOTHING, undefined, planted);
  assertEquals(options?.trusted, false);
  assertEquals(names?.includes("planted"), false);
  // Turning a server off is a tightening: honoured before trust.
  assertEquals(names?.includes("python"), false);
  assertEquals(names?.includes("typescript"), true);
});

Deno.test("setUpDiagnostics(): a project trusted by the flag has its servers; the user's own always count", () => {
  const trusted = setUp(FLAG, { zig: { command: ["zls"], extensions: [".zig"] } }, planted);
  assertEquals([trusted.options?.trusted, trusted.names?.slice(0, 2)], [true, ["planted", "zig"]]);
  const untrusted = setUp(NOTHING, { zig: { command: ["zls"], extensions: [".zig"] } }, undefined);
  assertEquals(untrusted.names?.[0], "zig");
});

Deno.test('setUpDiagnostics(): "lsp": false leaves the session without a service; a bad entry is said', () => {
  assertEquals(setUp(NOTHING, false, undefined).service, undefined);
  assertEquals(setUp(NOTHING, undefined, false).service, undefined);
  assertEquals(setUp(NOTHING, { go: { command: "gopls" } }, undefined).warnings, [
    'settings: lsp.go: give "command": ["program", "arg", ...] and "extensions": [".ext", ...] (or false) (skipped)',
  ]);
});

Deno.test("setUpDiagnostics(): TERN_LSP_WAIT_MS sets the bound; a value that is not a number is ignored", () => {
  assertEquals(setUp(NOTHING, undefined, undefined, { TERN_LSP_WAIT_MS: "500" }).options?.waitMs, 500);
  assertEquals(setUp(NOTHING, undefined, undefined, { TERN_LSP_WAIT_MS: "soon" }).options?.waitMs, undefined);
});

Deno.test("projectServerLines() names each server the project's lsp key adds, not those it turns off", () => {
  assertEquals(
    projectServerLines({
      python: { command: ["./evil-lsp", "--stdio"], extensions: [".py"] },
      typescript: false,
      bad: { command: "not-a-list" },
    }),
    ["python: ./evil-lsp --stdio (.py)"],
  );
  assertEquals(projectServerLines(undefined), []);
  assertEquals(projectServerLines(false), []);
});
