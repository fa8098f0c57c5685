import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { builtinTools } from "../../src/tools/builtin.ts";
import { runUnderTernFlags } from "./shell/_sandbox_driver.ts";
import { tempProject } from "./_helpers.ts";

Deno.test("builtinTools() returns the eight tools with distinct names and every field described", () => {
  const tools = builtinTools();
  assertEquals(tools.map((t) => t.name).sort(), [
    "edit_file",
    "execute_command",
    "glob_files",
    "grep_code",
    "list_dir",
    "read_file",
    "web_fetch",
    "write_file",
  ]);
  // A field is described by its own description or, more cheaply, by name in the tool's description.
  for (const tool of tools) {
    const properties = tool.parameters.properties as Record<string, { description?: string }>;
    for (const [field, schema] of Object.entries(properties)) {
      assert(schema.description || tool.description.includes(field), `${tool.name}.${field}`);
    }
  }
});

Deno.test("builtinTools() work, and refuse the outside, under tern's exact permission flags", async () => {
  await using p = await tempProject();
  await Deno.symlink("/etc/passwd", join(p.root, "passwd"));
  await Deno.symlink(p.outside, join(p.root, "out"));
  // A unique sleep time finds the child with `ps` from outside: inside bubblewrap `$!` is a namespace pid.
  const marker = `5.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
  const results = await runUnderTernFlags(p.root, [
    ["write_file", { path: "src/a.txt", content: "one\ntwo\n" }],
    ["edit_file", { path: "src/a.txt", old_text: "two", new_text: "2" }],
    ["read_file", { path: "src/a.txt" }],
    ["list_dir", {}],
    ["execute_command", { command: "cat src/a.txt" }],
    ["read_file", { path: "passwd" }],
    ["read_file", { path: "out/secret.txt" }],
    ["write_file", { path: "out/planted.txt", content: "x" }],
    ["list_dir", { path: "out" }],
    ["execute_command", { command: `sleep ${marker} & wait`, timeout_ms: 300 }],
  ]);
  const timedOut = results.pop()!;
  assertMatch(timedOut.content, /timed out after 0\.3 s/);
  const { stdout } = await new Deno.Command("ps", { args: ["-eo", "stat=,args="] }).output();
  const left = new TextDecoder().decode(stdout).split("\n").filter((line) => line.includes(marker));
  assert(left.every((line) => line.trimStart().startsWith("Z")), left.join("\n"));
  assertEquals(results.slice(0, 5), [
    { content: "Created src/a.txt (8 bytes)", isError: false },
    { content: "Edited src/a.txt: replaced 1 occurrence (+1 −1 lines)", isError: false },
    { content: "     1\tone\n     2\t2", isError: false },
    { content: "out -> (outside the project)\npasswd -> (outside the project)\nsrc/", isError: false },
    { content: "one\n2", isError: false },
  ]);
  for (const result of results.slice(5)) {
    assertStrictEquals(result.isError, true);
    assertMatch(result.content, /outside the project root/);
    assert(!result.content.includes(p.outside) && !result.content.includes("/etc"), result.content);
  }
});
