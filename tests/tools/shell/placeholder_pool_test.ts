/**
 * The pool of placeholders in tern's state folder (placeholder_pool.ts): folders move into place and back
 * instead of being made and removed, and nothing the pool holds is used unless it is a real, empty folder.
 * Attacked with a planted pool (a workflow inside an entry, a link out of the project).
 */
import { assert, assertEquals, assertStrictEquals, assertStringIncludes } from "../../support/assert.ts";
import { join } from "node:path";
import { call, executeCommandTool, tempProject, type TestContext, testContext } from "../_helpers.ts";
import { usePlaceholderPool } from "../../../src/tools/shell/placeholder_pool.ts";
import { boundStatePath, stateDir } from "../../../src/agent/state/tern_dir.ts";

function sandboxed(root: string): TestContext {
  return testContext(root, { shell: { sandbox: "required", secrets: [] } });
}

/** Runs `body` with the pool on as the CLI turns it on (only where tern's state folder is). */
async function withPool(body: () => Promise<void>): Promise<void> {
  usePlaceholderPool((root) =>
    boundStatePath(root) === undefined ? undefined : stateDir(root, "placeholders")
  );
  try {
    await body();
  } finally {
    usePlaceholderPool(undefined);
  }
}

/** The inode of each entry of `dir`, sorted. */
function inodes(dir: string): number[] {
  return [...Deno.readDirSync(dir)].map((entry) => Deno.lstatSync(join(dir, entry.name)).ino!).sort();
}

Deno.test("placeholders move between the pool and the project: none left after a command, the same folders next time", async () => {
  await using p = await tempProject({ "notes.txt": "n\n" });
  const pool = stateDir(p.root, "placeholders");
  await withPool(async () => {
    // Inside, a placeholder is the read-only empty folder it always was.
    const first = await call(
      executeCommandTool,
      { command: "ls -A AGENTS.md | wc -l; touch AGENTS.md/x 2>/dev/null || echo refused" },
      sandboxed(p.root),
    );
    assertEquals(first, { content: "0\nrefused", isError: false });
    assertEquals([...Deno.readDirSync(p.root)].map((entry) => entry.name).sort(), [".tern", "notes.txt"]);
    const kept = inodes(pool);
    assert(kept.length >= 10, `the pool keeps the placeholders (${kept.length})`);
    await call(executeCommandTool, { command: "echo again" }, sandboxed(p.root));
    assertEquals(inodes(pool), kept, "the same folders, none made or removed");
    assertEquals([...Deno.readDirSync(p.root)].map((entry) => entry.name).sort(), [".tern", "notes.txt"]);
  });
});

Deno.test("a planted pool entry is never moved into the project: a workflow inside one, a link out of it", async () => {
  await using p = await tempProject({});
  const pool = stateDir(p.root, "placeholders");
  await Deno.mkdir(join(pool, "planted/workflows"), { recursive: true });
  await Deno.writeTextFile(join(pool, "planted/workflows/evil.yml"), "on: push\n");
  await Deno.mkdir(join(p.outside, "empty"));
  await Deno.symlink(join(p.outside, "empty"), join(pool, "link"));
  await withPool(async () => {
    const result = await call(
      executeCommandTool,
      { command: "ls -A .github | wc -l; ls -A .claude | wc -l" },
      sandboxed(p.root),
    );
    assertEquals(result, { content: "0\n0", isError: false });
  });
  assertEquals(await Deno.lstat(join(p.root, ".github")).then(() => true, () => false), false);
  assertStrictEquals(await Deno.readTextFile(join(pool, "planted/workflows/evil.yml")), "on: push\n");
  assert((await Deno.lstat(join(pool, "link"))).isSymlink, "the link stays where it was planted");
  assertEquals([...Deno.readDirSync(join(p.outside, "empty"))], [], "nothing went through the link");
});

Deno.test("with the pool on, a project without tern's state folder gets none: placeholders are made and removed", async () => {
  await using p = await tempProject({ "notes.txt": "n\n" });
  await withPool(async () => {
    const result = await call(
      executeCommandTool,
      { command: "echo x > AGENTS.md; echo ran" },
      sandboxed(p.root),
    );
    assertStringIncludes(result.content, "ran");
  });
  assertEquals([...Deno.readDirSync(p.root)].map((entry) => entry.name), ["notes.txt"]);
});
