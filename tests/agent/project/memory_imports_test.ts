import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { expandImports } from "../../../src/agent/project/memory_imports.ts";
import { loadMemory } from "../../../src/agent/project/memory.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("expandImports() adds each file once, depth first, paths relative to the file naming them", async () => {
  await using project = await tempProject({
    "docs/style.md": "Style. See @rules/naming.md and @../common.md.",
    "docs/rules/naming.md": "Naming.",
    "common.md": "Common, naming @docs/rules/naming.md again.",
  });
  const text =
    "Main. Read @docs/style.md, then @common.md; mail me at me@x.org, ping @octocat, see @types/node.";
  const expanded = await expandImports(project.root, "AGENTS.md", text, 32_768);
  assertEquals(expanded.imports, ["docs/style.md", "docs/rules/naming.md", "common.md"]);
  assertEquals(expanded.problems, []);
  assertEquals(
    expanded.text,
    `${text}\n\n<imported path="docs/style.md">\nStyle. See @rules/naming.md and @../common.md.\n</imported>\n\n` +
      `<imported path="docs/rules/naming.md">\nNaming.\n</imported>\n\n` +
      `<imported path="common.md">\nCommon, naming @docs/rules/naming.md again.\n</imported>`,
  );
});

Deno.test("expandImports() refuses a cycle, a path outside the root, .env and a seventh level, one line each", async () => {
  await using project = await tempProject({
    "a.md": "A imports @AGENTS.md and @a.md",
    "l1.md": "@l2.md",
    "l2.md": "@l3.md",
    "l3.md": "@l4.md",
    "l4.md": "@l5.md",
    "l5.md": "@l6.md",
    "l6.md": "too deep",
    ".env": "KEY=secret",
  });
  await Deno.symlink(`${project.outside}/secret.txt`, `${project.root}/link.md`);
  const text = "@a.md @../outside/secret.txt @~/.claude/mine.md @/etc/passwd @link.md @.env @l1.md @gone.md";
  const expanded = await expandImports(project.root, "AGENTS.md", text, 32_768);
  assertEquals(expanded.imports, ["a.md", "l1.md", "l2.md", "l3.md", "l4.md", "l5.md"]);
  assertEquals(expanded.problems, [
    "AGENTS.md → a.md → AGENTS.md: an import cycle; not imported again",
    "AGENTS.md → a.md → a.md: an import cycle; not imported again",
    "AGENTS.md: @../outside/secret.txt is outside the project root (tern reads nothing outside the project); not imported",
    "AGENTS.md: @~/.claude/mine.md is outside the project root (tern reads nothing outside the project); not imported",
    "AGENTS.md: @/etc/passwd is outside the project root (tern reads nothing outside the project); not imported",
    "AGENTS.md: @link.md is outside the project root; not imported",
    "AGENTS.md: @.env is a .env file, which tern never reads; not imported",
    "l5.md: @l6.md is more than 5 imports deep; not imported",
    "AGENTS.md: @gone.md was not found; not imported",
  ]);
  assertEquals(expanded.text.includes("outside secret") || expanded.text.includes("too deep"), false);
});

Deno.test("expandImports() leaves mentions in code alone and stops at the memory cap", async () => {
  await using project = await tempProject({ "big.md": "x".repeat(200), "code.md": "never" });
  const text = "Run `npm i @code.md`.\n```sh\ncat @code.md\n```\nThen @big.md and @code.md";
  const expanded = await expandImports(project.root, "AGENTS.md", text, 200);
  // big.md starts below the cap (loadMemory cuts the text at it); code.md comes after it was passed.
  assertEquals(expanded.imports, ["big.md"]);
  assertEquals(expanded.problems, [
    "AGENTS.md: @code.md comes after the memory cap (200 bytes) was reached; not imported",
  ]);
  const inCode = await expandImports(project.root, "AGENTS.md", text.replace(" and @code.md", ""), 32_768);
  assertEquals(inCode.imports, ["big.md"]);
});

Deno.test("loadMemory() carries the imports, and /memory's figures count them", async () => {
  await using project = await tempProject({
    "CLAUDE.md": "Rules: @docs/t.md\n",
    "docs/t.md": "Test with deno.\n",
  });
  const memory = await loadMemory(project.root);
  assertEquals(memory?.imports, ["docs/t.md"]);
  assertStringIncludes(memory!.text, '<imported path="docs/t.md">\nTest with deno.\n</imported>');
  assertEquals(memory?.bytes, memory!.text.length + 1);
});
