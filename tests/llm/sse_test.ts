import { assertEquals, assertMatch, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { readSseEvents, type SseEvent, SseParser } from "../../src/llm/sse.ts";

/** Parses `text` fed in the given pieces, flushing at the end; the events' data payloads. */
function parse(pieces: string[]): string[] {
  return parseEvents(pieces).map((event) => event.data);
}

function parseEvents(pieces: string[]): SseEvent[] {
  const parser = new SseParser();
  return [...pieces.flatMap((piece) => parser.push(piece)), ...parser.flush()];
}

/** A byte stream delivering `bytes` in pieces of `size`. */
function byteStream(bytes: Uint8Array, size: number, onCancel?: () => void): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
    cancel: onCancel,
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const event of readSseEvents(stream)) out.push(event.data);
  return out;
}

Deno.test("SseParser reads data lines with and without a space after the colon", () => {
  assertEquals(parse(["data: one\n\ndata:two\n\ndata:  three\n\n"]), ["one", "two", " three"]);
});

Deno.test("SseParser joins the data lines of one event with a newline", () => {
  assertEquals(parse(["data: a\ndata: b\ndata:\n\n"]), ["a\nb\n"]);
});

Deno.test("SseParser ignores comments and the id and retry fields", () => {
  const text = ": keep-alive\nevent: message\nid: 7\nretry: 1000\ndata: x\n\n:\n\nevent: ping\n\n";
  assertEquals(parse([text]), ["x"]);
});

Deno.test("SseParser names each event by its event field, message when absent, never carrying it over", () => {
  const text = "event: message_start\ndata: {}\n\ndata: plain\n\nevent:ping\n\nevent: delta\ndata: d\n\n";
  assertEquals(parseEvents([text]), [
    { event: "message_start", data: "{}" },
    { event: "message", data: "plain" },
    { event: "delta", data: "d" },
  ]);
});

Deno.test("SseParser accepts CRLF, LF and CR line endings", () => {
  assertEquals(parse(["data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n"]), ["a", "b", "c", "d"]);
});

Deno.test("SseParser treats a CRLF split across two chunks as one line break", () => {
  assertEquals(parse(["data: a\r", "\ndata: b\r", "\n\r", "\n"]), ["a\nb"]);
});

Deno.test("SseParser gives the same events for every split point of a stream", () => {
  const text = 'data: {"a":1}\r\n\r\n: c\r\ndata: x\r\ndata: y\n\ndata:[DONE]\r\r';
  const whole = parse([text]);
  assertEquals(whole, ['{"a":1}', "x\ny", "[DONE]"]);
  for (let i = 0; i <= text.length; i++) {
    for (let j = i; j <= text.length; j += 3) {
      assertEquals(parse([text.slice(0, i), text.slice(i, j), text.slice(j)]), whole, `split ${i}/${j}`);
    }
  }
});

Deno.test("SseParser flushes the last event when the stream lacks a final blank line", () => {
  assertEquals(parse(["data: a\n\ndata: b"]), ["a", "b"]);
  assertEquals(parse(["data: a\n\ndata: b\n"]), ["a", "b"]);
});

Deno.test("SseParser skips events without data and keeps an empty data line", () => {
  assertEquals(parse(["event: x\n\n\n\ndata\n\n"]), [""]);
});

Deno.test("readSseEvents decodes UTF-8 characters split across byte chunks", async () => {
  const text = "data: héllo → 世界 ✅\n\ndata: second\n\n";
  const bytes = new TextEncoder().encode(text);
  for (const size of [1, 2, 3, 5, 7]) {
    assertEquals(await collect(byteStream(bytes, size)), ["héllo → 世界 ✅", "second"], `size ${size}`);
  }
});

Deno.test("readSseEvents flushes a final event without a trailing newline", async () => {
  const bytes = new TextEncoder().encode("data: a\r\n\r\ndata: b");
  assertEquals(await collect(byteStream(bytes, 4)), ["a", "b"]);
});

Deno.test("readSseEvents cancels the stream when the consumer stops early", async () => {
  let cancelled = false;
  const bytes = new TextEncoder().encode("data: 1\n\ndata: 2\n\ndata: 3\n\n");
  for await (const event of readSseEvents(byteStream(bytes, 9, () => cancelled = true))) {
    assertStrictEquals(event.data, "1");
    break;
  }
  assertStrictEquals(cancelled, true);
});

Deno.test("readSseEvents passes a read error through to the consumer", async () => {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
      controller.error(new Error("connection reset"));
    },
  });
  assertMatch(String(await assertRejects(() => collect(stream))), /connection reset/);
});
