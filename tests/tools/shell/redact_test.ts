import { assert, assertStrictEquals } from "../../support/assert.ts";
import { Redactor } from "../../../src/tools/shell/redact.ts";

function redactInChunks(secrets: string[], chunks: string[]): string {
  const redactor = new Redactor(secrets);
  return chunks.map((chunk) => redactor.push(chunk)).join("") + redactor.flush();
}

Deno.test("Redactor replaces a secret split at every possible place between two chunks", () => {
  const secret = "sk-0123456789abcdef";
  const text = `before ${secret} after ${secret}`;
  for (let cut = 0; cut <= text.length; cut++) {
    const redacted = redactInChunks([secret], [text.slice(0, cut), text.slice(cut)]);
    assertStrictEquals(redacted, "before [redacted] after [redacted]", `cut at ${cut}`);
  }
});

Deno.test("Redactor replaces a secret arriving one character at a time", () => {
  const secret = "tok-abcdefgh";
  const text = `x${secret}y${secret}${secret}z`;
  assertStrictEquals(redactInChunks([secret], [...text]), "x[redacted]y[redacted][redacted]z");
});

Deno.test("Redactor prefers the longer of two secrets starting at the same place", () => {
  const redacted = redactInChunks(["abcdefgh", "abcdefgh-ijkl"], ["1 abcdefgh-ijkl 2 abcdefgh 3"]);
  assertStrictEquals(redacted, "1 [redacted] 2 [redacted] 3");
});

Deno.test("Redactor ignores values shorter than 8 characters and passes text through without secrets", () => {
  assertStrictEquals(redactInChunks(["short", ""], ["a short text"]), "a short text");
  assertStrictEquals(new Redactor([]).push("text"), "text");
});

Deno.test("Redactor hides the start of a secret cut off at the end of the stream", () => {
  assertStrictEquals(redactInChunks(["sk-0123456789abcdef"], ["key: sk-0123456789"]), "key: [redacted]");
  assertStrictEquals(redactInChunks(["sk-0123456789abcdef"], ["key: sk-0"]), "key: sk-0");
});

Deno.test("Redactor never splits a surrogate pair when it holds text back", () => {
  const redactor = new Redactor(["secret-value"]);
  const out = redactor.push(`${"😀".repeat(20)}`);
  assert(!/[\ud800-\udbff]$/.test(out));
  assertStrictEquals(out + redactor.flush(), "😀".repeat(20));
});

Deno.test("Redactor releases text at once, holding back only an end that could start a secret", () => {
  const redactor = new Redactor(["sk-0123456789abcdef"]);
  assertStrictEquals(redactor.push("line one\n"), "line one\n");
  assertStrictEquals(redactor.push("key: sk-01"), "key: ");
  assertStrictEquals(redactor.push("23456789abcdef done\n"), "[redacted] done\n");
  assertStrictEquals(redactor.push("s"), "");
  assertStrictEquals(redactor.push("o on"), "so on");
});
