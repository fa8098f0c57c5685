import assert from "node:assert/strict";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import { type Tool, ToolError } from "../../src/tools/tool.ts";

const ctx = { root: "/srv/project", signal: new AbortController().signal };

function tool(name: string, run: Tool["run"]): Tool {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: {
      type: "object",
      properties: { text: { type: "string", description: "Text to use." } },
      required: ["text"],
      additionalProperties: false,
    },
    effect: "read",
    run,
  };
}

const echo = tool("echo", (args) => Promise.resolve(`echo: ${args.text}`));

Deno.test("createRegistry() rejects duplicate tool names", () => {
  assert.throws(() => createRegistry([echo, echo]), /duplicate tool name: echo/);
});

Deno.test("specs() lists tools sorted by name", () => {
  const registry = createRegistry([tool("zeta", echo.run), echo, tool("alpha", echo.run)]);
  assert.deepEqual(registry.specs().map((spec) => spec.name), ["alpha", "echo", "zeta"]);
  assert.deepEqual(registry.specs()[1], {
    name: "echo",
    description: "The echo tool.",
    parameters: echo.parameters,
  });
  assert.equal(registry.get("echo"), echo);
  assert.equal(registry.get("nope"), undefined);
});

Deno.test("execute() runs a tool and turns a string into a success result", async () => {
  const registry = createRegistry([echo]);
  assert.deepEqual(await registry.execute({ name: "echo", arguments: '{"text":"hi"}' }, ctx), {
    content: "echo: hi",
    isError: false,
  });
});

Deno.test("execute() answers an unknown tool with the available tools", async () => {
  const registry = createRegistry([echo, tool("read", echo.run)]);
  assert.deepEqual(await registry.execute({ name: "rm_rf", arguments: "{}" }, ctx), {
    content: 'unknown tool "rm_rf". Available tools: echo, read.',
    isError: true,
  });
});

Deno.test("execute() quotes the parse error of invalid JSON and asks for an object", async () => {
  const result = await createRegistry([echo]).execute({ name: "echo", arguments: '{"text": "hi"' }, ctx);
  assert.equal(result.isError, true);
  assert.match(result.content, /^echo: the arguments are not valid JSON \(.+\)\. Send a JSON object/);
});

Deno.test("execute() refuses arguments that are JSON but not an object", async () => {
  const result = await createRegistry([echo]).execute({ name: "echo", arguments: '["hi"]' }, ctx);
  assert.deepEqual(result, {
    content: "echo: the arguments must be a JSON object of named fields, got an array.",
    isError: true,
  });
});

Deno.test("execute() treats empty arguments as {} and reports the schema failure", async () => {
  const result = await createRegistry([echo]).execute({ name: "echo", arguments: "" }, ctx);
  assert.deepEqual(result, {
    content: 'echo: field "text" is required (string): text to use',
    isError: true,
  });
});

Deno.test("execute() treats null fields as left out", async () => {
  const optional = tool("opt", (args) => Promise.resolve(`got ${JSON.stringify(args)}`));
  const result = await createRegistry([optional]).execute(
    { name: "opt", arguments: '{"text":"a","x":null}' },
    ctx,
  );
  assert.deepEqual(result, { content: 'got {"text":"a"}', isError: false });
});

Deno.test("execute() reports a ToolError's message as is and prefixes other errors, without stacks", async () => {
  const polite = tool("polite", () => Promise.reject(new ToolError("file not found: try list_dir")));
  const crashing = tool("crashing", () => {
    throw new TypeError("cannot read properties of undefined");
  });
  const registry = createRegistry([polite, crashing]);
  const args = '{"text":"x"}';
  assert.deepEqual(await registry.execute({ name: "polite", arguments: args }, ctx), {
    content: "file not found: try list_dir",
    isError: true,
  });
  const crash = await registry.execute({ name: "crashing", arguments: args }, ctx);
  assert.deepEqual(crash, { content: "crashing: cannot read properties of undefined", isError: true });
});

Deno.test("execute() keeps the root's absolute path out of error messages", async () => {
  const leaky = tool("leaky", () => Promise.reject(new Error("No such file: open '/srv/project/src/a.ts'")));
  const result = await createRegistry([leaky]).execute({ name: "leaky", arguments: '{"text":"x"}' }, ctx);
  assert.deepEqual(result, { content: "leaky: No such file: open 'src/a.ts'", isError: true });
});

Deno.test("execute() words the built-in tools' schema failures for the model", async () => {
  const registry = createRegistry(builtinTools());
  const missing = await registry.execute(
    { name: "edit_file", arguments: '{"path":"a","new_text":"b"}' },
    ctx,
  );
  assert.deepEqual(missing, {
    content: 'edit_file: field "old_text" is required (string): the exact text to replace',
    isError: true,
  });
  const wrong = await registry.execute({ name: "read_file", arguments: '{"path":"a","offset":"ten"}' }, ctx);
  assert.deepEqual(wrong, {
    content: 'read_file: field "offset" must be an integer ≥ 1, got "ten"',
    isError: true,
  });
});

Deno.test("execute() spills any tool's result over 32,000 characters and gives the model head, tail and path", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-registry-" }));
  try {
    const full = Array.from({ length: 10_000 }, (_, i) => `row ${i}`).join("\n");
    const flood = tool("flood", () => Promise.resolve({ content: full, isError: true }));
    const result = await createRegistry([flood]).execute(
      { name: "flood", arguments: '{"text":"x"}' },
      { root, signal: new AbortController().signal },
    );
    assert.equal(result.isError, true);
    assert.ok(result.content.length < 32_000, `${result.content.length}`);
    const path = /saved in (\.tern\/tool-outputs\/\S+-flood-\d+\.txt)\./.exec(result.content)?.[1];
    assert.ok(path, result.content.slice(0, 200));
    assert.equal(await Deno.readTextFile(`${root}/${path}`), full);
    assert.match(result.content, /\nrow 0\nrow 1\n/);
    assert.match(result.content, /\nrow 9999$/);
    assert.match(result.content, /… \[\d+ characters cut, lines \d+–\d+\] …/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("execute() still bounds a long result when it cannot be saved, and never creates a missing root", async () => {
  const parent = await Deno.makeTempDir({ prefix: "tern-registry-" });
  const missing = { root: `${parent}/gone`, signal: new AbortController().signal };
  const long = tool("long", () => Promise.resolve("z".repeat(100_000)));
  const result = await createRegistry([long]).execute({ name: "long", arguments: '{"text":"x"}' }, missing);
  await assert.rejects(Deno.lstat(missing.root), Deno.errors.NotFound);
  await Deno.remove(parent);
  assert.equal(result.isError, false);
  assert.ok(result.content.length < 32_000);
  assert.match(
    result.content,
    /^\[Output too long \(100000 characters, 1 line\); it could not be saved to a file/,
  );
  assert.deepEqual(await createRegistry([echo]).execute({ name: "echo", arguments: '{"text":"hi"}' }, ctx), {
    content: "echo: hi",
    isError: false,
  });
});
