/**
 * What the trust question shows about the project's `.mcp.json`: each server and what it would run or
 * reach. The decision itself is the project's one trust decision (agent/project_trust.ts); the front end
 * passes every line through the terminal sanitiser before it is shown.
 */
import type { McpConfigFile, McpServerConfig } from "./config.ts";
import { referencedVariables } from "./config.ts";
import type { SandboxMode } from "../../config/settings.ts";
import { sandboxWords, serverSandbox } from "./server_sandbox.ts";

/**
 * What the trust prompt shows: each server, what it would run or reach, and the sandbox it gets once the
 * project is trusted under tern's `--sandbox` `mode` (where bubblewrap works).
 */
export function describeServers(config: McpConfigFile, mode: SandboxMode = "auto"): string[] {
  const lines = config.servers.map((server) => describe(server, mode));
  const vars = referencedVariables(config.text);
  if (vars.length > 0) lines.push(`it passes these variables of yours to the servers: ${vars.join(", ")}`);
  return lines;
}

function describe(server: McpServerConfig, mode: SandboxMode): string {
  if (server.type === "http") {
    const headers = Object.keys(server.headers);
    return `${server.name}: HTTP ${server.url}${headers.length ? ` (headers: ${headers.join(", ")})` : ""}`;
  }
  const sandbox = serverSandbox(server, { mode, available: true, trusted: true });
  const where = typeof sandbox === "string" ? sandbox : sandboxWords(sandbox);
  const env = Object.keys(server.env).map(quoteForDisplay);
  const command = [server.command, ...server.args].map(quoteForDisplay).join(" ");
  return `${server.name}: runs ${command} (${where}${env.length ? `; env: ${env.join(", ")}` : ""})`;
}

function quoteForDisplay(word: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  const clean = word.replace(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, "?");
  return /^[\w./:=@%+-]+$/.test(clean) ? clean : `'${clean.replaceAll("'", `'\\''`)}'`;
}
