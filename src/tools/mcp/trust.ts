/**
 * What the trust question shows about the project's `.mcp.json`: each server and what it would run or
 * reach. The decision itself is the project's one trust decision (agent/project_trust.ts); the front end
 * passes every line through the terminal sanitiser before it is shown.
 */
import type { McpConfigFile, McpServerConfig } from "./config.ts";
import { referencedVariables } from "./config.ts";

/** What the trust prompt shows: each server and what it would run or reach. */
export function describeServers(config: McpConfigFile): string[] {
  const lines = config.servers.map(describe);
  const vars = referencedVariables(config.text);
  if (vars.length > 0) lines.push(`it passes these variables of yours to the servers: ${vars.join(", ")}`);
  return lines;
}

function describe(server: McpServerConfig): string {
  if (server.type === "http") {
    const headers = Object.keys(server.headers);
    return `${server.name}: HTTP ${server.url}${headers.length ? ` (headers: ${headers.join(", ")})` : ""}`;
  }
  const where = server.sandbox ? `sandboxed${server.network ? " with network" : ""}` : "NOT sandboxed";
  const env = Object.keys(server.env).map(quoteForDisplay);
  const command = [server.command, ...server.args].map(quoteForDisplay).join(" ");
  return `${server.name}: runs ${command} (${where}${env.length ? `; env: ${env.join(", ")}` : ""})`;
}

function quoteForDisplay(word: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  const clean = word.replace(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, "?");
  return /^[\w./:=@%+-]+$/.test(clean) ? clean : `'${clean.replaceAll("'", `'\\''`)}'`;
}
