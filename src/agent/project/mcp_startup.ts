/**
 * The project's MCP servers at launch: `.mcp.json` read (`readMcp`); once the project's trust is settled
 * (agent/project_trust.ts) the door starts them in parallel without waiting for them (tools/mcp/hub_start.ts).
 * A headless run waits for them before its first request, up to `TERN_MCP_STARTUP_MS` (Project.mcpReady).
 */
import {
  loadMcpConfig,
  MCP_CONFIG_FILE,
  type McpConfigFile,
  type WithheldVariables,
} from "../../tools/mcp/config.ts";
import type { McpHub } from "../../tools/mcp/client.ts";

/** Longest wait of a headless run for the trusted servers, in milliseconds (`TERN_MCP_STARTUP_MS`). */
export const MCP_STARTUP_MS = 5000;

/** What launch learned: the hub (when servers started) and lines for stderr. */
export interface McpStartup {
  hub?: McpHub;
  notes: string[];
}

/** The project's `.mcp.json`, read: the config (when it has servers) and lines about what was skipped. */
export interface McpRead {
  config?: McpConfigFile;
  notes: string[];
}

/** Reads `.mcp.json` (tern's own key variables `withheld`); never throws for a bad or missing file. */
export async function readMcp(
  root: string,
  env: Record<string, string>,
  withheld?: WithheldVariables,
): Promise<McpRead> {
  let config;
  try {
    config = await loadMcpConfig(root, env, withheld);
  } catch (error) {
    return { notes: [`${MCP_CONFIG_FILE} could not be read (${(error as Error).name}); no MCP servers`] };
  }
  if (config === undefined) return { notes: [] };
  const notes = [
    ...config.problems.map((problem) => `${MCP_CONFIG_FILE}: ${problem} (skipped)`),
    ...(config.notes ?? []).map((note) => `${MCP_CONFIG_FILE}: ${note}`),
  ];
  return { config: config.servers.length > 0 ? config : undefined, notes };
}

/**
 * Waits for the servers, up to `TERN_MCP_STARTUP_MS` (default MCP_STARTUP_MS);
 * returns one line for each server still starting, for stderr (the session says which joined or failed).
 */
export async function waitForMcp(hub: McpHub, env: Record<string, string>): Promise<string[]> {
  const limit = Number(env.TERN_MCP_STARTUP_MS) >= 0 && env.TERN_MCP_STARTUP_MS !== undefined
    ? Number(env.TERN_MCP_STARTUP_MS)
    : MCP_STARTUP_MS;
  await hub.ready(limit);
  return hub.servers.filter((server) => server.state === "starting").map((server) =>
    `MCP server "${server.config.name}" is still starting after ${limit} ms (TERN_MCP_STARTUP_MS); going ` +
    "on without its tools"
  );
}
