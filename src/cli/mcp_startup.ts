/**
 * Starting the project's MCP servers at launch: read `.mcp.json` (`readMcp`), and once the project's trust
 * is settled (agent/project_trust.ts) start the servers in parallel, waiting for them at most `limitMs` so a
 * slow server never delays the first prompt by more.
 */
import type { SandboxMode } from "../config/settings.ts";
import {
  loadMcpConfig,
  MCP_CONFIG_FILE,
  type McpConfigFile,
  type WithheldVariables,
} from "../tools/mcp/config.ts";
import type { McpHub } from "../tools/mcp/client.ts";

/** Default wait for servers at launch, in milliseconds (`TERN_MCP_STARTUP_MS` overrides it). */
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

/** Options of `startMcp`. */
export interface McpStartupOptions {
  root: string;
  env: Record<string, string>;
  sandbox: SandboxMode;
  /** The servers to start: only a trusted project's. */
  config: McpConfigFile;
  limitMs?: number;
}

/** Starts the servers of a trusted `.mcp.json`; never throws for a bad server. */
export async function startMcp(options: McpStartupOptions): Promise<McpStartup> {
  const { root, env, config } = options;
  const notes: string[] = [];
  // The SDK is loaded only for a project that has trusted servers: every other run starts without it.
  const { McpHub } = await import("../tools/mcp/client.ts");
  const hub = new McpHub(config.servers, { root, sandbox: options.sandbox });
  const limit = Number(env.TERN_MCP_STARTUP_MS) > 0 ? Number(env.TERN_MCP_STARTUP_MS) : MCP_STARTUP_MS;
  await hub.ready(options.limitMs ?? limit);
  for (const server of hub.servers) {
    if (server.state === "failed") notes.push(`MCP server "${server.config.name}" failed: ${server.error}`);
    if (server.state === "starting") {
      notes.push(
        `MCP server "${server.config.name}" is still starting; its tools come with the next conversation`,
      );
    }
  }
  return { hub, notes };
}
