import { assertEquals, assertThrows } from "../../support/assert.ts";
import { MAX_FRAME_BYTES, RpcConnection, takeFrame } from "../../../src/tools/lsp/jsonrpc.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

Deno.test("takeFrame() waits for a whole frame, then returns its body and what follows", () => {
  assertEquals(takeFrame(bytes('Content-Length: 7\r\n\r\n{"a":')), undefined);
  const frame = takeFrame(bytes('Content-Length: 7\r\nContent-Type: x\r\n\r\n{"a":1}Content-Length: 2'));
  assertEquals([frame?.body, text(frame!.rest)], ['{"a":1}', "Content-Length: 2"]);
});

Deno.test("takeFrame() counts bytes, not characters: a body with é is cut where its length says", () => {
  const body = '{"m":"é"}';
  const frame = takeFrame(bytes(`Content-Length: ${bytes(body).length}\r\n\r\n${body}{}`));
  assertEquals([frame?.body, text(frame!.rest)], [body, "{}"]);
});

Deno.test("takeFrame() refuses a header without Content-Length, one over 4 KB, and a frame over the cap", () => {
  assertThrows(() => takeFrame(bytes("Bogus: 1\r\n\r\n{}")), Error, "without Content-Length");
  assertThrows(() => takeFrame(bytes("X".repeat(5000))), Error, "header over 4 KB");
  assertThrows(() => takeFrame(bytes(`Content-Length: ${MAX_FRAME_BYTES + 1}\r\n\r\n`)), Error, "over 16 MB");
});

Deno.test("RpcConnection answers the server's requests, matches replies to requests, and rejects them at the end", async () => {
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const toServer = new TransformStream<Uint8Array, Uint8Array>();
  const notes: string[] = [];
  const rpc = new RpcConnection(toClient.readable, toServer.writable, {
    onNotification: (method) => notes.push(method),
    onRequest: (method) => ({ answered: method }),
  });
  const server = toClient.writable.getWriter();
  const sent = toServer.readable.getReader();
  const frame = (message: unknown) => {
    const body = JSON.stringify(message);
    return bytes(`Content-Length: ${bytes(body).length}\r\n\r\n${body}`);
  };
  const reply = rpc.request("initialize", {});
  assertEquals(
    takeFrame((await sent.read()).value!)?.body,
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
  );
  await server.write(frame({ jsonrpc: "2.0", id: 7, method: "workspace/configuration", params: {} }));
  assertEquals(JSON.parse(takeFrame((await sent.read()).value!)!.body), {
    jsonrpc: "2.0",
    id: 7,
    result: { answered: "workspace/configuration" },
  });
  await server.write(frame({ jsonrpc: "2.0", method: "window/logMessage", params: {} }));
  await server.write(frame({ jsonrpc: "2.0", id: 1, result: { capabilities: {} } }));
  assertEquals(await reply, { capabilities: {} });
  assertEquals(notes, ["window/logMessage"]);
  const pending = rpc.request("shutdown", null);
  await sent.read();
  await server.close();
  await rpc.done;
  await pending.then(
    () => assertEquals("resolved", "rejected"),
    (error) => assertEquals(error.message, "the server closed its output"),
  );
  sent.releaseLock();
});
