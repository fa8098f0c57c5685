/** `/mcp`: the project's MCP servers, their state and how many tools each offers. */
import type { McpHub } from "../../tools/mcp/client.ts";
import { sandboxWords } from "../../tools/mcp/server_sandbox.ts";
import type { SlashCommand } from "./types.ts";

/** Builds `/mcp` over the servers started at launch (none when `.mcp.json` is absent or untrusted). */
export function mcpCommand(hub: McpHub | undefined, notes: readonly string[] = []): SlashCommand {
  return {
    name: "/mcp",
    help: "list the MCP servers from .mcp.json, their state and tool counts",
    run: (ctx) => {
      const servers = hub?.servers ?? [];
      if (servers.length === 0) {
        ctx.screen.print("No MCP servers running (servers come from .mcp.json in the project root).", "dim");
        for (const note of notes) ctx.screen.print(note, "dim");
        return "continue";
      }
      const offered = new Set(ctx.session.toolNames());
      for (const server of servers) {
        const { name, type } = server.config;
        const where = type === "http"
          ? "http"
          : server.sandbox
          ? `stdio, ${sandboxWords(server.sandbox)}`
          : "stdio";
        const inUse = server.tools.filter((tool) => offered.has(`mcp__${name}__${tool.name}`)).length;
        const tools = server.state === "ready"
          ? ` · ${server.tools.length} tools (${inUse} in this conversation)`
          : "";
        const why = server.error ? ` · ${server.error}` : "";
        ctx.screen.print(`  ${name} (${where}): ${server.state}${tools}${why}`);
      }
      return "continue";
    },
  };
}
