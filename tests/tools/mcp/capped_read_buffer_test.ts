/** The MCP stdio reader: whole messages as they are, an over-long one cut into an answer to its request. */
import { assertEquals, assertStringIncludes, assertThrows } from "../../support/assert.ts";
import { CappedReadBuffer } from "../../../src/tools/mcp/capped_read_buffer.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function readAll(reader: CappedReadBuffer): unknown[] {
  const out: unknown[] = [];
  for (let message = reader.readMessage(); message !== null; message = reader.readMessage()) {
    out.push(message);
  }
  return out;
}

Deno.test("CappedReadBuffer reads messages split anywhere across chunks, several in one chunk too", () => {
  const reader = new CappedReadBuffer({ maxLineBytes: 1000 });
  const text = '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{"a":"é"}}\r\n';
  const bytes = encode(text);
  for (let i = 0; i < bytes.length; i += 7) reader.append(bytes.subarray(i, i + 7));
  assertEquals(readAll(reader), [
    { jsonrpc: "2.0", id: 1, result: {} },
    { jsonrpc: "2.0", id: 2, result: { a: "é" } },
  ]);
  reader.append(encode("not json\n"));
  assertThrows(() => reader.readMessage());
  assertEquals(reader.readMessage(), null, "a bad line is taken off the queue");
});

Deno.test("CappedReadBuffer cuts an over-long answer into a text result for its id, at the end (TypeScript SDK) or the start", () => {
  const reader = new CappedReadBuffer({ maxLineBytes: 1000 });
  const text = 'ab\\"c' + "x".repeat(5000);
  reader.append(encode(`{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":7}\n`));
  reader.append(
    encode(`{"jsonrpc":"2.0","id":"r-8","result":{"content":[{"type":"text","text":"${text}"}]}}\n`),
  );
  const [first, second] = readAll(reader) as { id: unknown; result: { content: { text: string }[] } }[];
  assertEquals([first.id, second.id], [7, "r-8"]);
  for (const answer of [first, second]) {
    const said = answer.result.content[0].text;
    assertEquals(said.startsWith('ab"cxxx'), true, said.slice(0, 20));
    assertStringIncludes(said, "[cut by tern: the MCP server's answer was 5,0");
    assertEquals(said.length < 1200, true);
  }
});

Deno.test("CappedReadBuffer drops an over-long message without an id, and reads the next one", () => {
  const reader = new CappedReadBuffer({ maxLineBytes: 100 });
  reader.append(encode(`{"jsonrpc":"2.0","method":"log","params":{"data":"${"y".repeat(500)}"}}\n`));
  reader.append(encode('{"jsonrpc":"2.0","id":3,"result":{}}\n'));
  const [dropped, next] = readAll(reader) as Record<string, unknown>[];
  assertEquals([dropped.id, dropped.method], [undefined, "notifications/message"]);
  assertEquals(next, { jsonrpc: "2.0", id: 3, result: {} });
});

Deno.test("CappedReadBuffer keeps a copy of what it holds: the caller may reuse a chunk's memory", () => {
  const reader = new CappedReadBuffer({ maxLineBytes: 1000 });
  const chunk = encode('{"jsonrpc":"2.0","id":4,"result":{"a":1}');
  reader.append(chunk);
  chunk.fill(0x20);
  reader.append(encode("}\n"));
  assertEquals(readAll(reader), [{ jsonrpc: "2.0", id: 4, result: { a: 1 } }]);
});
