import { assert, assertEquals, assertStrictEquals } from "../support/assert.ts";
import { validateArgs } from "../../src/tools/_validate.ts";

const schema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Path of the file." },
    old_text: { type: "string", description: "The exact text to replace." },
    offset: { type: "integer", minimum: 1, description: "Line to start from." },
    limit: { type: "integer", minimum: 1, maximum: 2000, description: "Lines to read." },
    ratio: { type: "number", maximum: 1, description: "A ratio." },
    all: { type: "boolean", description: "Everything." },
    mode: { type: "string", enum: ["fast", "slow"], description: "How." },
    tags: { type: "array", items: { type: "string" }, description: "Labels." },
    edits: {
      type: "array",
      items: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      description: "Edits.",
    },
  },
  required: ["path", "old_text"],
  additionalProperties: false,
};

function check(args: unknown): string[] {
  return validateArgs("edit_file", schema, args);
}

Deno.test("validateArgs() accepts valid arguments", () => {
  assertEquals(check({ path: "a", old_text: "b", offset: 3, all: true, mode: "fast", tags: ["x"] }), []);
});

Deno.test("validateArgs() words a missing required field with its type and description", () => {
  assertEquals(check({ path: "a" }), [
    'edit_file: field "old_text" is required (string): the exact text to replace',
  ]);
});

Deno.test("validateArgs() says what was received and what to send", () => {
  const base = { path: "a", old_text: "b" };
  assertEquals(check({ ...base, offset: "ten" }), [
    'edit_file: field "offset" must be an integer ≥ 1, got "ten"',
  ]);
  assertEquals(check({ ...base, offset: 0 }), [
    'edit_file: field "offset" must be an integer ≥ 1, got 0',
  ]);
  assertEquals(check({ ...base, offset: 1.5 }), [
    'edit_file: field "offset" must be an integer ≥ 1, got 1.5',
  ]);
  assertEquals(check({ ...base, limit: 5000 }), [
    'edit_file: field "limit" must be an integer from 1 to 2000, got 5000',
  ]);
  assertEquals(check({ ...base, ratio: 2 }), ['edit_file: field "ratio" must be a number ≤ 1, got 2']);
  assertEquals(check({ ...base, all: "yes" }), [
    'edit_file: field "all" must be true or false, got "yes"',
  ]);
  assertEquals(check({ ...base, mode: "medium" }), [
    'edit_file: field "mode" must be one of "fast", "slow", got "medium"',
  ]);
  assertEquals(check({ ...base, path: { a: 1 } }), [
    'edit_file: field "path" must be a string, got an object',
  ]);
});

Deno.test("validateArgs() names nested fields and array items", () => {
  const base = { path: "a", old_text: "b" };
  assertEquals(check({ ...base, tags: ["x", 2] }), [
    'edit_file: field "tags[1]" must be a string, got 2',
  ]);
  assertEquals(check({ ...base, edits: [{ n: 1 }, {}] }), [
    'edit_file: field "edits[1].n" is required (integer)',
  ]);
});

Deno.test("validateArgs() refuses unknown fields, listing the known ones", () => {
  assertEquals(check({ path: "a", old_text: "b", file: "c" }), [
    'edit_file: unknown field "file"; the fields are: path, old_text, offset, limit, ratio, all, mode, tags, edits',
  ]);
});

Deno.test("validateArgs() reports every problem, and a non-object as a whole", () => {
  assertStrictEquals(check({ offset: "x" }).length, 3);
  assertEquals(check([1]), ["edit_file: the arguments must be an object, got an array"]);
});

Deno.test("validateArgs() shortens a huge received value", () => {
  const [message] = check({ path: "a", old_text: "b", offset: "x".repeat(1000) });
  assert(message.length < 150, message);
});
