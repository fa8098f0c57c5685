import { assertEquals } from "../../support/assert.ts";
import { sandboxWords, serverSandbox, startHint } from "../../../src/tools/mcp/server_sandbox.ts";
import type { StdioServerConfig } from "../../../src/tools/mcp/config.ts";

const NPX: StdioServerConfig = {
  name: "fs",
  type: "stdio",
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-filesystem", "."],
  env: {},
  sandbox: true,
};

const HERE = { mode: "auto" as const, available: true };

Deno.test("serverSandbox() gives a trusted server the user's HOME and network, an untrusted one the strict sandbox", () => {
  assertEquals(serverSandbox(NPX, { ...HERE, trusted: true }), { kind: "project", network: true });
  assertEquals(serverSandbox(NPX, { ...HERE, trusted: false }), { kind: "strict", network: false });
  assertEquals(serverSandbox({ ...NPX, network: true }, { ...HERE, trusted: false }), {
    kind: "strict",
    network: true,
  });
  assertEquals(serverSandbox({ ...NPX, network: false }, { ...HERE, trusted: true }), {
    kind: "project",
    network: false,
  });
  assertEquals(serverSandbox({ ...NPX, sandbox: "strict" }, { ...HERE, trusted: true }), {
    kind: "strict",
    network: false,
  });
});

Deno.test("serverSandbox() runs a server unconfined when its entry, --sandbox off or a missing bwrap says so", () => {
  assertEquals(serverSandbox({ ...NPX, sandbox: false }, { ...HERE, trusted: false }), {
    kind: "none",
    network: true,
    reason: '"sandbox": false',
  });
  assertEquals(serverSandbox(NPX, { mode: "off", trusted: true }), {
    kind: "none",
    network: true,
    reason: "--sandbox off",
  });
  const missing = { available: false, unavailable: "bubblewrap is not installed", trusted: true };
  assertEquals(serverSandbox(NPX, { mode: "auto", ...missing }), {
    kind: "none",
    network: true,
    reason: "bubblewrap is not installed",
  });
  assertEquals(
    serverSandbox(NPX, { mode: "required", ...missing }),
    "--sandbox required, but bubblewrap is not installed",
  );
});

Deno.test("startHint() says where a failed server ran and which keys of its entry change that", () => {
  const strict = serverSandbox(NPX, { ...HERE, trusted: false });
  assertEquals(
    typeof strict !== "string" && startHint(NPX, strict, false),
    "it ran in the strict sandbox (writes only in the project, a private HOME, no network); npx needs the " +
      'network and a writable HOME to fetch the server; in its .mcp.json entry, "network": true gives it ' +
      'the network, "sandbox": false runs it outside the sandbox, or trust the project for your HOME and the ' +
      "network (pass --trust-project, or answer yes to the trust question the REPL asks: tern without -p here)",
  );
  const trusted = { kind: "project" as const, network: true };
  assertEquals(
    startHint({ ...NPX, command: "/usr/bin/my-server" }, trusted, true),
    "it ran in the sandbox (writes only in the project and your HOME, network on); in its .mcp.json entry, " +
      '"sandbox": false runs it outside the sandbox',
  );
  assertEquals(
    sandboxWords({ kind: "none", network: true, reason: "--sandbox off" }),
    "NOT sandboxed (--sandbox off): full access to files and network",
  );
});
