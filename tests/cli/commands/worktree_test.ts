/** `/worktree` in the REPL (stdin piped, as a script would drive it) through the real CLI. */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runTern } from "../../support/cli.ts";
import { git, plantedRepo } from "../../support/planted_repo.ts";
import { testNeeding } from "../../support/requires.ts";
import { tempProject } from "../../support/temp_project.ts";

const env = { TERN_BASE_URL: "http://127.0.0.1:9/v1", TERN_API_KEY: "k", TERN_MODEL: "fake-model" };

testNeeding(
  ["git"],
  "/worktree NAME makes the worktree, says how to work there, and /worktree lists it",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    const input = "/worktree feat\n/worktree feat\n/worktree ../x\n/worktree\n/exit\n";
    const run = await runTern({ cwd: repo.root, args: [], env: { ...repo.env, ...env }, input });
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(run.stdout, "Made worktree feat on branch tern/feat at .tern/local/worktrees/feat.");
    assertStringIncludes(run.stdout, "To work there: tern -w feat (here, in another terminal)");
    assertStringIncludes(run.stdout, "Found worktree feat on branch tern/feat");
    assertStringIncludes(run.stdout, "'../x' cannot name a worktree");
    assertStringIncludes(run.stdout, "feat  tern/feat  .tern/local/worktrees/feat  0 changed");
    assertEquals(await Deno.readTextFile(join(repo.root, ".tern/local/worktrees/feat/a.txt")), "a\n");
    assertEquals(await git(repo.root, "rev-parse", "--abbrev-ref", "HEAD"), "main\n");
  },
);

Deno.test("/worktree outside a git repository says so and the session goes on", async () => {
  await using project = await tempProject();
  const run = await runTern({ cwd: project.root, args: [], env, input: "/worktree feat\n/exit\n" });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "worktrees need a git repository, and this directory is not in one");
});
