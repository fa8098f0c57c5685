/**
 * MCP servers start beside the session, never before it: a server that becomes ready after the tools were
 * built joins the conversation at the next prompt, and one that failed is said once, with why.
 */
import type { McpServer } from "../tools/mcp/client.ts";
import { mcpTools } from "../tools/mcp/adapter.ts";
import type { Tool } from "../tools/tool.ts";

/** What changed among the servers since the conversation's tools were built. */
export interface ServerChanges {
  /** Servers became ready: the tools must be built again for them to join. */
  rebuild: boolean;
  /** One line per server that joined or failed, for the screen. */
  lines: string[];
}

/** Which servers' tools a session's conversation has, and what to say about the others. */
export class McpWatch {
  readonly #servers: () => readonly McpServer[];
  #inTools = new Set<string>();
  readonly #failedSaid = new Set<string>();

  constructor(servers: () => readonly McpServer[]) {
    this.#servers = servers;
  }

  /** The ready servers' tools, for a registry being built; remembers which servers they came from. */
  tools(secrets: readonly string[]): Tool[] {
    const servers = this.#servers();
    this.#inTools = new Set(servers.filter((server) => server.state === "ready").map(nameOf));
    return mcpTools(servers, secrets).tools;
  }

  /** Before a prompt: servers ready since the tools were built, and servers that failed (each said once). */
  changes(): ServerChanges {
    const lines: string[] = [];
    let rebuild = false;
    for (const server of this.#servers()) {
      const name = nameOf(server);
      if (server.state === "ready" && !this.#inTools.has(name)) {
        rebuild = true;
        const count = mcpTools([server]).tools.length;
        lines.push(
          `MCP server "${name}" is ready: its ${count} tool${count === 1 ? "" : "s"} join this conversation`,
        );
      } else if (server.state === "failed" && !this.#failedSaid.has(name)) {
        this.#failedSaid.add(name);
        lines.push(`MCP server "${name}" failed: ${server.error ?? "no reason given"}`);
      }
    }
    return { rebuild, lines };
  }
}

function nameOf(server: McpServer): string {
  return server.config.name;
}
