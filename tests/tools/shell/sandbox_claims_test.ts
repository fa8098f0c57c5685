/**
 * Claims across tern processes (sandbox_claims.ts, sandbox_sweep.ts): a placeholder another living tern
 * relies on is neither put away nor taken for a leftover; once that tern is killed outright, the next
 * start puts it away and undoes what its command left.
 */
import { assertEquals } from "../../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempProject } from "../_helpers.ts";
import { stateDir } from "../../../src/agent/state/tern_dir.ts";
import { useSandboxClaims } from "../../../src/tools/shell/sandbox_claims.ts";
import { guardedPaths } from "../../../src/tools/shell/guarded_paths.ts";
import { sweepSandboxLeftovers } from "../../../src/tools/shell/sandbox_sweep.ts";

async function holder(root: string): Promise<Deno.ChildProcess> {
  const script = fileURLToPath(new URL("./_claim_holder.ts", import.meta.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, root],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assertEquals((await reader.read()).value?.trim(), "held");
  reader.releaseLock();
  return child;
}

function isEmptyFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory && [...Deno.readDirSync(path)].length === 0;
  } catch {
    return false;
  }
}

Deno.test("another tern's placeholder is borrowed, not swept; after that tern is killed the next start puts it away", async () => {
  await using p = await tempProject({ "a.txt": "a\n" });
  await Deno.mkdir(join(p.root, ".git"));
  useSandboxClaims((dir) => stateDir(dir, "sandbox"));
  try {
    const other = await holder(p.root);
    const guarded = guardedPaths(p.root);
    assertEquals(
      guarded.readOnly.includes("AGENTS.md"),
      true,
      "bound read-only as the other tern's placeholder",
    );
    assertEquals(guarded.guardMissing.dirs.includes("AGENTS.md"), false);
    assertEquals(await guarded.cleanUp(), []);
    assertEquals(isEmptyFolder(join(p.root, "AGENTS.md")), true, "still there: the other tern relies on it");
    assertEquals(
      await sweepSandboxLeftovers(p.root),
      undefined,
      "a living tern's placeholder is not a leftover",
    );
    other.kill("SIGKILL");
    await other.status;
    await other.stdin.close().catch(() => {});
    await Deno.writeTextFile(join(p.root, ".git/commondir"), "../evil\n"); // what its command left
    const said = await sweepSandboxLeftovers(p.root);
    assertEquals(said, "a tern that ended mid-command left changes, undone: removed .git/commondir");
    assertEquals([...Deno.readDirSync(p.root)].map((entry) => entry.name).sort(), [".git", ".tern", "a.txt"]);
  } finally {
    useSandboxClaims(undefined);
  }
  assertEquals([...Deno.readDirSync(stateDir(p.root, "sandbox"))].map((entry) => entry.name), ["lock"]);
});

Deno.test("at start an empty folder at a protected file's name that no tern relies on is put away; a full one stays", async () => {
  await using p = await tempProject({ "a.txt": "a\n", "Jenkinsfile/keep.txt": "the user's\n" });
  await Deno.mkdir(join(p.root, ".env"));
  await Deno.mkdir(join(p.root, ".env.local"));
  useSandboxClaims((dir) => stateDir(dir, "sandbox"));
  try {
    const said = await sweepSandboxLeftovers(p.root);
    assertEquals(
      said,
      "a tern that ended mid-command left changes, undone: put away the empty folder .env, " +
        "put away the empty folder .env.local",
    );
    assertEquals(await Deno.readTextFile(join(p.root, "Jenkinsfile/keep.txt")), "the user's\n");
  } finally {
    useSandboxClaims(undefined);
  }
});
