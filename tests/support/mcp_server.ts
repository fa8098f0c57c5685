/**
 * A small MCP server for the tests, speaking JSON-RPC over stdio (newline-delimited) by hand, so it can also
 * misbehave. `deno run tests/support/mcp_server.ts [MODE]`; MODE `crash` exits on the first tool call,
 * `hang` never answers one, anything else behaves. Tools: `echo` (read-only) and `add_note` (writes).
 */
import { mcpReply } from "./mcp_protocol.ts";

const mode = Deno.args[0] ?? "ok";
const decoder = new TextDecoder();
const encoder = new TextEncoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let newline;
  while ((newline = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (line.trim() === "") continue;
    const message = JSON.parse(line);
    if (message.method === "tools/call" && mode === "crash") {
      console.error("test server: crashing on purpose");
      Deno.exit(3);
    }
    if (message.method === "tools/call" && mode === "hang") continue;
    const reply = mcpReply(message);
    if (reply !== undefined) await Deno.stdout.write(encoder.encode(JSON.stringify(reply) + "\n"));
  }
}
