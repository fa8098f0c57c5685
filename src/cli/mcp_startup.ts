/**
 * Starting the project's MCP servers at launch: read `.mcp.json`, settle trust (ask once in the REPL,
 * refuse headless without `--trust-project-mcp`), start the servers in parallel, and wait for them at most
 * `limitMs` so a slow server never delays the first prompt by more.
 */
import type { SandboxMode } from "../config/settings.ts";
import { loadMcpConfig, MCP_CONFIG_FILE } from "../tools/mcp/config.ts";
import type { McpHub } from "../tools/mcp/client.ts";
import { decideTrust, type TrustAsker } from "../tools/mcp/trust.ts";

/** Default wait for servers at launch, in milliseconds (`TERN_MCP_STARTUP_MS` overrides it). */
export const MCP_STARTUP_MS = 5000;

/** What launch learned: the hub (when servers started) and lines for stderr. */
export interface McpStartup {
  hub?: McpHub;
  notes: string[];
}

/** Options of `startMcp`. */
export interface McpStartupOptions {
  root: string;
  env: Record<string, string>;
  sandbox: SandboxMode;
  /** `--trust-project-mcp` was given. */
  trustFlag: boolean;
  /** How to ask the user; absent when nobody can answer (headless, no terminal). */
  ask?: TrustAsker;
  limitMs?: number;
}

/** Reads `.mcp.json` and starts its servers if trusted; never throws for a bad file or a bad server. */
export async function startMcp(options: McpStartupOptions): Promise<McpStartup> {
  const { root, env } = options;
  let config;
  try {
    config = await loadMcpConfig(root, env);
  } catch (error) {
    return { notes: [`${MCP_CONFIG_FILE} could not be read (${(error as Error).name}); no MCP servers`] };
  }
  if (config === undefined) return { notes: [] };
  const notes = config.problems.map((problem) => `${MCP_CONFIG_FILE}: ${problem} (skipped)`);
  if (config.servers.length === 0) return { notes };
  const trust = await decideTrust(root, config, { flag: options.trustFlag, ask: options.ask });
  if (!trust.trusted) {
    notes.push(
      trust.how === "no_terminal"
        ? `${MCP_CONFIG_FILE} servers not started: this project's MCP config is not trusted yet (run tern ` +
          "once in this directory to answer, or pass --trust-project-mcp)"
        : `${MCP_CONFIG_FILE} servers not started: you declined them for this project (delete ` +
          ".tern/mcp-trust.json to be asked again)",
    );
    return { notes };
  }
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

/** The REPL's trust question, on the terminal (the prompt library is loaded only when asking). */
export const askTrustOnTerminal: TrustAsker = async (lines) => {
  const { confirm } = await import("@inquirer/prompts");
  console.error(`This project's ${MCP_CONFIG_FILE} wants to start MCP servers:`);
  for (const line of lines) console.error(`  ${line}`);
  try {
    return await confirm({ message: "Start them (remembered for this project)?", default: false });
  } catch {
    return false; // Ctrl-C at the question: no
  }
};
