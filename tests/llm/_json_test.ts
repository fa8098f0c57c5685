import { assertEquals } from "../support/assert.ts";
import { jsonParts } from "../../src/llm/_json.ts";
import { joinedBytes } from "../../src/bytes.ts";

const encoder = new TextEncoder();
const item = (value: unknown) => encoder.encode(`,${JSON.stringify(value)}`);
const text = (parts: Uint8Array[]) => new TextDecoder().decode(joinedBytes(parts));

Deno.test("jsonParts() joins to exactly JSON.stringify(body), wherever the list sits and whatever it holds", () => {
  const list = [{ role: "user", content: 'é "q" \n' }, { n: 1, nested: [1, { a: null }] }];
  const bodies = [
    { model: "m", messages: list, stream: true, tools: [{ name: "x" }] },
    { messages: list, model: "m" },
    { model: "m", skipped: undefined, fn: () => 1, messages: list, last: "z" },
    { model: "m", messages: [] },
    { messages: [] },
  ];
  for (const body of bodies) {
    const items = (body.messages as unknown[]).map(item);
    assertEquals(text(jsonParts(body, "messages", items)), JSON.stringify(body));
  }
});

Deno.test("jsonParts() of a body without the list, or an empty body, is JSON.stringify's too", () => {
  assertEquals(text(jsonParts({ model: "m", n: 2 }, "messages", [])), JSON.stringify({ model: "m", n: 2 }));
  assertEquals(text(jsonParts({}, "messages", [])), "{}");
  assertEquals(text(jsonParts({ gone: undefined }, "messages", [])), "{}");
});
