import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../support/assert.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import {
  type CallContext,
  createRegistry,
  inspectPrepared,
  type Registry,
  runPrepared,
  type ToolCallRequest,
} from "../../src/tools/registry.ts";
import { tempProject } from "../support/temp_project.ts";
import { FatalToolError, type Tool, ToolError, type ToolResult } from "../../src/tools/tool.ts";

/** A real, empty project root: an error is only an error result while the root exists. */
async function project(): Promise<CallContext & AsyncDisposable> {
  const made = await tempProject();
  return {
    root: made.root,
    signal: made.ctx.signal,
    [Symbol.asyncDispose]: () => made[Symbol.asyncDispose](),
  };
}

function tool(name: string, run: Tool["run"]): Tool {
  return {
    name,
    description: `The ${name} tool.`,
    guidance: `${name}: do ${name} things.`,
    parameters: {
      type: "object",
      properties: { text: { type: "string", description: "Text to use." } },
      required: ["text"],
      additionalProperties: false,
    },
    inspect: (args) => Promise.resolve({ effect: "read", paths: [], summary: String(args.text) }),
    run,
  };
}

const echo = tool("echo", (args) => Promise.resolve(`echo: ${args.text}`));

/** Prepares and runs a call as the loop does; a call that fails preparation gets its error result. */
async function execute(registry: Registry, call: ToolCallRequest, ctx: CallContext): Promise<ToolResult> {
  const prepared = registry.prepare(call);
  return "tool" in prepared ? await runPrepared(prepared, ctx) : prepared;
}

Deno.test("createRegistry() rejects duplicate tool names", () => {
  assertThrows(() => createRegistry([echo, echo]), Error, "duplicate tool name: echo");
});

Deno.test("specs() and tools() list tools sorted by name", () => {
  const registry = createRegistry([tool("zeta", echo.run), echo, tool("alpha", echo.run)]);
  assertEquals(registry.specs().map((spec) => spec.name), ["alpha", "echo", "zeta"]);
  assertEquals(registry.specs()[1], {
    name: "echo",
    description: "The echo tool.",
    parameters: {
      type: "object",
      properties: { text: { type: "string", description: "Text to use." } },
      required: ["text"],
    },
  });
  assertEquals(registry.tools().map((t) => t.guidance), [
    "alpha: do alpha things.",
    "echo: do echo things.",
    "zeta: do zeta things.",
  ]);
});

Deno.test("specs() leave additionalProperties: false out at every depth, and prepare() still refuses unknown fields", () => {
  const nested = {
    ...echo,
    parameters: {
      type: "object",
      properties: {
        edits: {
          type: "array",
          items: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
        },
        open: { type: "object", additionalProperties: true },
      },
      additionalProperties: false,
    },
  };
  const registry = createRegistry([nested]);
  const sent = JSON.stringify(registry.specs());
  assertEquals(sent.includes('"additionalProperties":false'), false);
  assert(sent.includes('"additionalProperties":true'));
  assertEquals(nested.parameters.additionalProperties, false, "the tool's own schema is untouched");
  assertEquals(registry.prepare({ name: "echo", arguments: '{"edits":[{"a":"x","b":"y"}]}' }), {
    content: 'echo: unknown field "edits[0].b"; the fields are: a',
    error: { kind: "bad_arguments" },
  });
});

Deno.test("specs() leave numeric bounds out, and prepare() still refuses a number out of range, naming it", () => {
  const bounded = {
    ...echo,
    parameters: {
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, maximum: 50 },
        // A property that happens to be called "minimum" is a field, not a bound.
        minimum: { type: "object", properties: {} },
      },
      additionalProperties: false,
    },
  };
  const registry = createRegistry([bounded]);
  const sent = JSON.stringify(registry.specs());
  assertEquals(sent.includes('"maximum":50'), false, sent);
  assertEquals(sent.includes('"minimum":1'), false, sent);
  assert(sent.includes('"minimum":{"type":"object"'), sent);
  const refused = registry.prepare({ name: "echo", arguments: '{"limit":99}' });

  assert("content" in refused && refused.content.includes("50"), JSON.stringify(refused));
});

Deno.test("specs() show edit_file's leaner model schema, and prepare() still checks each edit in full", () => {
  const registry = createRegistry(builtinTools());
  const spec = registry.specs().find((entry) => entry.name === "edit_file")!;
  const edits = (spec.parameters.properties as Record<string, unknown>).edits;
  assertEquals(edits, { type: "array" });
  // The description names what the schema no longer spells out.
  for (const field of ["old_text", "new_text", "replace_all"]) {
    assert(spec.description.includes(field), field);
  }
  const missing = registry.prepare({
    name: "edit_file",
    arguments: JSON.stringify({ path: "a.txt", edits: [{ old_text: "a" }] }),
  });
  assert("content" in missing && /new_text/.test(missing.content), JSON.stringify(missing));
  const stray = registry.prepare({
    name: "edit_file",
    arguments: JSON.stringify({ path: "a.txt", edits: [{ old_text: "a", new_text: "b", old: "c" }] }),
  });
  assert("content" in stray && /old/.test(stray.content), JSON.stringify(stray));
});

Deno.test("runPrepared() turns a string into a success result", async () => {
  await using ctx = await project();
  assertEquals(await execute(createRegistry([echo]), { name: "echo", arguments: '{"text":"hi"}' }, ctx), {
    content: "echo: hi",
  });
});

Deno.test("prepare() answers an unknown tool with the available tools, as kind unknown_tool", () => {
  const registry = createRegistry([echo, tool("read", echo.run)]);
  assertEquals(registry.prepare({ name: "rm_rf", arguments: "{}" }), {
    content: 'unknown tool "rm_rf". Available tools: echo, read.',
    error: { kind: "unknown_tool" },
  });
});

Deno.test("prepare() quotes the parse error of invalid JSON and asks for an object", () => {
  const result = createRegistry([echo]).prepare({ name: "echo", arguments: '{"text": "hi"' }) as ToolResult;
  assertEquals(result.error, { kind: "bad_arguments" });
  assertMatch(result.content, /^echo: the arguments are not valid JSON \(.+\)\. Send a JSON object/);
});

Deno.test("prepare() refuses arguments that are JSON but not an object", () => {
  assertEquals(createRegistry([echo]).prepare({ name: "echo", arguments: '["hi"]' }), {
    content: "echo: the arguments must be a JSON object of named fields, got an array.",
    error: { kind: "bad_arguments" },
  });
});

Deno.test("prepare() treats empty arguments as {} and reports the schema failure", () => {
  assertEquals(createRegistry([echo]).prepare({ name: "echo", arguments: "" }), {
    content: 'echo: field "text" is required (string): text to use',
    error: { kind: "bad_arguments" },
  });
});

Deno.test("prepare() treats null fields as left out", async () => {
  await using ctx = await project();
  const optional = tool("opt", (args) => Promise.resolve(`got ${JSON.stringify(args)}`));
  const result = await execute(createRegistry([optional]), {
    name: "opt",
    arguments: '{"text":"a","x":null}',
  }, ctx);
  assertEquals(result, { content: 'got {"text":"a"}' });
});

Deno.test("runPrepared() reports a ToolError as is, with its kind, and other errors prefixed as internal", async () => {
  await using ctx = await project();
  const polite = tool(
    "polite",
    () => Promise.reject(new ToolError("file not found: try list_dir", "not_found")),
  );
  const plain = tool("plain", () => Promise.reject(new Error("something odd")));
  const missing = tool("missing", () => Deno.readTextFile(`${ctx.root}/nope.txt`));
  const registry = createRegistry([polite, plain, missing]);
  const args = '{"text":"x"}';
  assertEquals(await execute(registry, { name: "polite", arguments: args }, ctx), {
    content: "file not found: try list_dir",
    error: { kind: "not_found" },
  });
  assertEquals(await execute(registry, { name: "plain", arguments: args }, ctx), {
    content: "plain: something odd",
    error: { kind: "internal" },
  });
  assertEquals((await execute(registry, { name: "missing", arguments: args }, ctx)).error, {
    kind: "not_found",
  });
});

Deno.test("runPrepared() ends the task on a bug in tern (TypeError) and on FatalToolError, never handing it to the model", async () => {
  await using ctx = await project();
  const crashing = tool("crashing", () => {
    throw new TypeError("cannot read properties of undefined");
  });
  const fatal = tool(
    "fatal",
    () => Promise.reject(new FatalToolError("the sandbox is required but unusable")),
  );
  const registry = createRegistry([crashing, fatal]);
  const args = '{"text":"x"}';
  const bug = await assertRejects(
    () => execute(registry, { name: "crashing", arguments: args }, ctx),
    FatalToolError,
  );
  assertMatch(bug.message, /^a bug in tern: crashing: cannot read properties of undefined$/);
  assert(bug.cause instanceof TypeError, "the stack stays reachable for TERN_DEBUG");
  await assertRejects(
    () => execute(registry, { name: "fatal", arguments: args }, ctx),
    FatalToolError,
    "the sandbox is required but unusable",
  );
});

Deno.test("runPrepared() ends the task when the project root vanished under a failing tool", async () => {
  const ctx = await project();
  const failing = tool("failing", () => Promise.reject(new ToolError("x.txt not found", "not_found")));
  await Deno.remove(ctx.root, { recursive: true });
  await assertRejects(
    () => execute(createRegistry([failing]), { name: "failing", arguments: '{"text":"x"}' }, ctx),
    FatalToolError,
    "the project root no longer exists",
  );
});

Deno.test("inspectPrepared() returns the call with its tool's facts, or the error result of a refused dry run", async () => {
  await using ctx = await project();
  const picky: Tool = {
    ...echo,
    name: "picky",
    inspect: (args) =>
      args.text === "ok"
        ? Promise.resolve({ effect: "write", paths: ["a.txt"], summary: "a.txt" })
        : Promise.reject(new ToolError("old_text was not found in a.txt", "no_match")),
  };
  const registry = createRegistry([picky]);
  const prepare = (text: string) => {
    const prepared = registry.prepare({ name: "picky", arguments: JSON.stringify({ text }) });
    if (!("tool" in prepared)) throw new Error("expected a prepared call");
    return prepared;
  };
  const ok = prepare("ok");
  assertEquals(await inspectPrepared(ok, ctx), {
    ...ok,
    inspection: { effect: "write", paths: ["a.txt"], summary: "a.txt" },
  });
  assertEquals(await inspectPrepared(prepare("no"), ctx), {
    content: "old_text was not found in a.txt",
    error: { kind: "no_match" },
  });
});

Deno.test("runPrepared() hands run() the plan of the call's own inspection, kept out of its facts", async () => {
  await using ctx = await project();
  const planner: Tool = {
    ...echo,
    name: "planner",
    inspect: (args) =>
      Promise.resolve({ effect: "write", paths: [], summary: "s", plan: { planned: `for ${args.text}` } }),
    run: (_args, _ctx, plan) => Promise.resolve(`ran ${JSON.stringify(plan) ?? "without a plan"}`),
  };
  const prepared = createRegistry([planner]).prepare({ name: "planner", arguments: '{"text":"a"}' });
  assert("tool" in prepared);
  const inspected = await inspectPrepared(prepared, ctx);
  assert("inspection" in inspected);
  assertEquals(inspected.inspection, { effect: "write", paths: [], summary: "s" });
  assertEquals((await runPrepared(inspected, ctx)).content, 'ran {"planned":"for a"}');
  assertEquals((await runPrepared(prepared, ctx)).content, "ran without a plan");
});

Deno.test("runPrepared() keeps the root's absolute path out of error messages", async () => {
  await using ctx = await project();
  const leaky = tool("leaky", () => Promise.reject(new Error(`No such file: open '${ctx.root}/src/a.ts'`)));
  const result = await execute(createRegistry([leaky]), { name: "leaky", arguments: '{"text":"x"}' }, ctx);
  assertEquals(result, { content: "leaky: No such file: open 'src/a.ts'", error: { kind: "internal" } });
});

Deno.test("the built-in tools word their argument failures for the model", async () => {
  await using ctx = await project();
  const registry = createRegistry(builtinTools());
  assertEquals(
    await execute(registry, { name: "edit_file", arguments: '{"path":"a","new_text":"b"}' }, ctx),
    {
      content: 'edit_file: field "old_text" is required (string): the exact text to replace',
      error: { kind: "bad_arguments" },
    },
  );
  assertEquals(registry.prepare({ name: "read_file", arguments: '{"path":"a","offset":"ten"}' }), {
    content: 'read_file: field "offset" must be an integer ≥ 1, got "ten"',
    error: { kind: "bad_arguments" },
  });
});

Deno.test("runPrepared() spills any tool's result over 32,000 characters and gives the model head, tail and path", async () => {
  await using ctx = await project();
  const full = Array.from({ length: 10_000 }, (_, i) => `row ${i}`).join("\n");
  const flood = tool("flood", () => Promise.resolve({ content: full, error: { kind: "exit_code" } }));
  const result = await execute(createRegistry([flood]), { name: "flood", arguments: '{"text":"x"}' }, ctx);
  assertEquals(result.error, { kind: "exit_code" });
  assert(result.content.length < 32_000, `${result.content.length}`);
  const path = /saved in (\.tern\/tool-outputs\/\S+-flood-\d+\.txt)\./.exec(result.content)?.[1];
  assert(path, result.content.slice(0, 200));
  assertEquals(result.details?.spilledTo, path);
  assertEquals(await Deno.readTextFile(`${ctx.root}/${path}`), full);
  assertMatch(result.content, /\nrow 0\nrow 1\n/);
  assertMatch(result.content, /\nrow 9999$/);
  assertMatch(result.content, /… \[\d+ characters cut, lines \d+–\d+\] …/);
});

Deno.test("runPrepared() still bounds a long result when it cannot be saved", async () => {
  await using ctx = await project();
  await Deno.writeTextFile(`${ctx.root}/.tern`, "a file where the spill folder would go");
  const long = tool("long", () => Promise.resolve("z".repeat(100_000)));
  const result = await execute(createRegistry([long]), { name: "long", arguments: '{"text":"x"}' }, ctx);
  assertEquals(result.error, undefined);
  assertEquals(result.details, undefined);
  assert(result.content.length < 32_000);
  assertMatch(
    result.content,
    /^\[Output too long \(100000 characters, 1 line\); it could not be saved to a file/,
  );
});

Deno.test("a NUL byte in a command, a pattern or a path is an error result the model can act on, never a crash", async () => {
  await using ctx = await project();
  await Deno.writeTextFile(`${ctx.root}/a.txt`, "hello\n");
  const registry = createRegistry(builtinTools({ shell: { sandbox: "off", secrets: [] } }));
  const calls: [string, Record<string, unknown>][] = [
    ["execute_command", { command: "echo a\0b" }],
    ["grep_code", { pattern: "a\0b" }],
    ["grep_code", { pattern: "h", glob: "*\0" }],
    ["glob_files", { pattern: "*\0" }],
    ["read_file", { path: "a\0.txt" }],
    ["edit_file", { path: "a\0.txt", old_text: "h", new_text: "j" }],
  ];
  for (const [name, args] of calls) {
    const prepared = registry.prepare({ name, arguments: JSON.stringify(args) });
    assert(!("tool" in prepared), name);
    assertEquals(prepared.error?.kind, "bad_arguments", name);
    assertMatch(prepared.content, /holds a NUL byte \(\\0\), which no command, path or pattern can carry/);
  }
  const written = registry.prepare({
    name: "write_file",
    arguments: JSON.stringify({ path: "bin.dat", content: "a\0b" }),
  });
  assert("tool" in written, "file text may hold a NUL byte");
  assertEquals((await runPrepared(written, ctx)).error, undefined);
  assertEquals(await Deno.readTextFile(`${ctx.root}/bin.dat`), "a\0b");
});
