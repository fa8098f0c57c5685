/**
 * `/worktree` in the REPL through the real CLI: with stdin piped (as a script would drive it) it makes the
 * worktree and says how to work there; on a terminal (tmux) the REPL goes on in the worktree.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { runTern, ternCommandLine } from "../../support/cli.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { startTmux } from "../../support/tmux.ts";
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

testNeeding(
  ["git", "tmux"],
  "/worktree NAME on a terminal: the REPL goes on in the worktree, whose writes land there alone",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    await using model = await startFakeModel([
      { text: "hi there" },
      { toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "new.txt", content: "w\n" }) }] },
      { text: "wrote it" },
    ]);
    const vars = Object.entries({ ...repo.env, ...env, TERN_BASE_URL: model.url })
      .map(([name, value]) => `${name}='${value}'`).join(" ");
    await using tern = await startTmux(
      `cd ${repo.root} && env ${vars} ${await ternCommandLine()} --approve all`,
    );
    await tern.waitFor("›");
    await tern.send("hello", "Enter");
    await tern.waitFor("hi there");
    await tern.send("/worktree feat", "Enter");
    const there = join(repo.root, ".tern/local/worktrees/feat");
    await tern.waitFor(`project root: ${there}`);
    await tern.send("write it", "Enter");
    await tern.waitFor("wrote it");
    assertEquals(await Deno.readTextFile(join(there, "new.txt")), "w\n");
    assertEquals(await Deno.lstat(join(repo.root, "new.txt")).then(() => true, () => false), false);
    // The worktree's session is saved in the worktree's own state.
    const sessions = [...Deno.readDirSync(join(there, ".tern/local/sessions"))];
    assert(sessions.length > 0, "a session in the worktree");
    await tern.send("C-d");
    assert(await tern.waitForExit(), "tern exits on Ctrl-D");
  },
);
