/**
 * Starting a hub of MCP servers (the project's trusted `.mcp.json`, an editor's for one ACP session), with
 * the SDK loaded only then: a run without servers never pays for it.
 */
import type { HubOptions, McpHub } from "./client.ts";
import type { McpServerConfig } from "./config.ts";

/** Starts `configs` at once and returns the hub without waiting for them (see McpHub.ready). */
export async function startHub(configs: McpServerConfig[], options: HubOptions): Promise<McpHub> {
  const { McpHub } = await import("./client.ts");
  return new McpHub(configs, options);
}
