/**
 * A small MCP server for the tests, speaking JSON-RPC over stdio (newline-delimited) by hand, so it can also
 * misbehave. `deno run tests/support/mcp_server.ts [MODE]`; MODE `crash` exits on the first tool call,
 * `hang` never answers one, `gate=PATH` answers nothing until the file PATH exists (a server that becomes
 * ready when the test says so), `log=PATH` appends "started" to PATH as it starts (run with --allow-write),
 * anything else behaves. Tools: `echo` (read-only) and `add_note` (writes).
 */
import { mcpReply } from "./mcp_protocol.ts";

const mode = Deno.args[0] ?? "ok";

/** Resolves once the gate file exists (at once without a gate). */
async function gateOpen(): Promise<void> {
  if (!mode.startsWith("gate=")) return;
  while (!(await Deno.stat(mode.slice(5)).then(() => true, () => false))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
if (mode.startsWith("log=")) await Deno.writeTextFile(mode.slice(4), "started\n", { append: true });
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
    await gateOpen();
    if (message.method === "tools/call" && mode === "crash") {
      console.error("test server: crashing on purpose");
      Deno.exit(3);
    }
    if (message.method === "tools/call" && mode === "hang") continue;
    const reply = mcpReply(message);
    if (reply !== undefined) await Deno.stdout.write(encoder.encode(JSON.stringify(reply) + "\n"));
  }
}
