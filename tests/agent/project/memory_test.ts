import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { loadMemory, MEMORY_CAP_BYTES } from "../../../src/agent/project/memory.ts";
import { systemPrompt } from "../../../src/agent/prompt.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("loadMemory() prefers AGENTS.md, falls back to CLAUDE.md, and is null without either", async () => {
  await using both = await tempProject({ "AGENTS.md": "agents\n", "CLAUDE.md": "claude\n" });
  assertEquals(await loadMemory(both.root), {
    source: "AGENTS.md",
    text: "agents",
    bytes: 7,
    truncated: false,
  });
  await using claude = await tempProject({ "CLAUDE.md": "claude\r\nrules\n" });
  assertEquals((await loadMemory(claude.root))?.text, "claude\nrules");
  await using none = await tempProject({ "README.md": "x" });
  assertEquals(await loadMemory(none.root), null);
});

Deno.test("loadMemory() cuts at 32 KB on a character boundary and says so", async () => {
  await using project = await tempProject({ "AGENTS.md": "é".repeat(MEMORY_CAP_BYTES) });
  const memory = await loadMemory(project.root);
  assert(memory?.truncated);
  assertStringIncludes(memory.text, "[AGENTS.md was cut at 32 KB of 65536 bytes");
  assert(!memory.text.includes("\uFFFD"), "no broken character at the cut");
});

Deno.test("loadMemory() ignores an AGENTS.md symlink leading outside the project", async () => {
  await using outside = await tempProject({ "secret.md": "outside" });
  await using project = await tempProject({ "CLAUDE.md": "inside" });
  await Deno.symlink(`${outside.root}/secret.md`, `${project.root}/AGENTS.md`);
  assertEquals((await loadMemory(project.root))?.text, "inside");
});

Deno.test("systemPrompt() carries the memory last, byte-identical across builds", async () => {
  await using project = await tempProject({ "AGENTS.md": "Run deno task test.\n" });
  const memory = await loadMemory(project.root);
  const tools = [{ guidance: "read_file: read" }];
  const a = systemPrompt("/p", tools, { memory });
  assertEquals(a, systemPrompt("/p", tools, { memory: await loadMemory(project.root) }));
  assert(a.endsWith('<project_memory source="AGENTS.md">\nRun deno task test.\n</project_memory>'));
  assertEquals(systemPrompt("/p", tools, { memory: null }), systemPrompt("/p", tools));
});
