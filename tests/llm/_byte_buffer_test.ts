import { assertEquals } from "../support/assert.ts";
import { ByteBuffer } from "../../src/llm/_byte_buffer.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (view: Uint8Array) => new TextDecoder().decode(view);

Deno.test("ByteBuffer.write() joins the parts, and from an offset keeps what the last write put before it", () => {
  const buffer = new ByteBuffer();
  assertEquals(text(buffer.write([bytes('{"a":'), bytes("1"), bytes("}")])), '{"a":1}');
  // The next body continues the last one: only what follows position 5 is written anew.
  assertEquals(text(buffer.write([bytes("12}")], 5)), '{"a":12}');
  assertEquals(text(buffer.write([bytes("x")])), "x");
});

Deno.test("ByteBuffer.write() keeps the kept prefix when it must grow, past 4 KB and past double", () => {
  const buffer = new ByteBuffer();
  const head = "h".repeat(3000);
  buffer.write([bytes(head)]);
  const long = "t".repeat(20_000);
  const view = buffer.write([bytes(long)], 3000);
  assertEquals(view.length, 23_000);
  assertEquals(text(view), head + long);
});

Deno.test("ByteBuffer.write() of nothing from 0 is an empty view", () => {
  assertEquals(new ByteBuffer().write([]).length, 0);
});
