/**
 * MCP servers an editor passes in `session/new` (or `session/load`): the user's own configuration, started for
 * that session alone under the same rules as a trusted project's (sandboxed as tern's mode says, closed with
 * the session). Servers tern cannot start from a description (HTTP and SSE, which `initialize` says it does
 * not take, a bad name) are refused with a reason the editor shows.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { SandboxMode } from "../../config/settings.ts";
import type { McpHub } from "../../tools/mcp/client.ts";
import { SERVER_NAME, type StdioServerConfig } from "../../tools/mcp/config.ts";
import { startHub } from "../../tools/mcp/hub_start.ts";

/** The stdio servers of `servers` as tern's configs, or the reason the first unusable one is refused. */
export function editorServerConfigs(servers: readonly acp.McpServer[]): StdioServerConfig[] | string {
  const configs: StdioServerConfig[] = [];
  for (const server of servers) {
    if (!("command" in server) || typeof server.command !== "string") {
      return `MCP server "${server.name}": tern acp starts stdio servers only (its initialize says http and ` +
        "sse are not supported)";
    }
    if (!SERVER_NAME.test(server.name)) {
      return `MCP server "${server.name}": a name is 1-24 letters, digits, "-" or "_" (it becomes part of ` +
        "tool names)";
    }
    if (configs.some((config) => config.name === server.name)) {
      return `MCP server "${server.name}" is named twice`;
    }
    const env = Object.fromEntries((server.env ?? []).map(({ name, value }) => [name, value]));
    configs.push({
      name: server.name,
      type: "stdio",
      command: server.command,
      args: server.args ?? [],
      env,
      sandbox: true,
    });
  }
  return configs;
}

/** Starts the editor's servers for one session (none: undefined). */
export async function startEditorServers(
  configs: StdioServerConfig[],
  options: { root: string; sandbox: SandboxMode },
): Promise<McpHub | undefined> {
  if (configs.length === 0) return undefined;
  return await startHub(configs, { root: options.root, sandbox: options.sandbox, trusted: true });
}
