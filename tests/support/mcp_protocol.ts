/** The test MCP servers' answers (stdio and HTTP share them): initialize, tools/list, tools/call. */

/** A JSON-RPC message as the tests' servers see it. */
export interface RpcMessage {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

/** The tools the test servers offer. */
export const TEST_TOOLS = [
  {
    name: "echo",
    description: "Echoes its text back.\u001b[31m (with a planted escape)",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    annotations: { readOnlyHint: true },
  },
  {
    name: "add_note",
    description: "Pretends to store a note.",
    inputSchema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
  },
  { name: "bad schema", description: "A name no provider accepts.", inputSchema: { type: "object" } },
];

/** Characters of the result `echo` gives for the text "huge-result": 20 MB. */
export const HUGE_RESULT_CHARS = 20 * 1024 * 1024;

/** The reply to `message`, or undefined for a notification. */
export function mcpReply(message: RpcMessage): Record<string, unknown> | undefined {
  if (message.id === undefined) return undefined;
  const result = (value: unknown) => ({ jsonrpc: "2.0", id: message.id, result: value });
  const args = (message.params?.arguments ?? {}) as Record<string, string>;
  switch (message.method) {
    case "initialize":
      return result({
        protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "tern-test-server", version: "1.0.0" },
      });
    case "tools/list":
      return result({ tools: TEST_TOOLS });
    case "tools/call":
      // A result far over any cap: the client must cut it and the server live on.
      if (message.params?.name === "echo" && args.text === "huge-result") {
        return result({ content: [{ type: "text", text: `huge: ${"x".repeat(HUGE_RESULT_CHARS)}` }] });
      }
      if (message.params?.name === "echo") {
        return result({
          content: [
            { type: "text", text: `echo: ${args.text}` },
            { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
          ],
        });
      }
      if (message.params?.name === "add_note") return result({ content: [{ type: "text", text: "noted" }] });
      return result({ content: [{ type: "text", text: "no such tool" }], isError: true });
    case "ping":
      return result({});
    default:
      return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "method not found" } };
  }
}

/** Starts the MCP server over streamable HTTP on 127.0.0.1 (plain JSON answers, which the spec allows). */
export function startHttpMcp(): { url: string; requests: RpcMessage[] } & AsyncDisposable {
  const requests: RpcMessage[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const message = await request.json() as RpcMessage;
    requests.push(message);
    const reply = mcpReply(message);
    if (reply === undefined) return new Response(null, { status: 202 });
    return Response.json(reply, { headers: { "mcp-session-id": "test-session" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
