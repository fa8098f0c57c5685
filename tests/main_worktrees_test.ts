/** `tern -w NAME` and `tern worktrees [remove]` through the real CLI: made, reused, listed, removed, refused. */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { runTern } from "./support/cli.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { git, plantedRepo } from "./support/planted_repo.ts";
import { testNeeding } from "./support/requires.ts";
import { tempProject } from "./support/temp_project.ts";

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);
const modelEnv = (url: string) => ({ TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" });
const write = (path: string) => ({ name: "write_file", arguments: JSON.stringify({ path, content: "x\n" }) });

testNeeding(
  ["git"],
  "tern -w: made, reused with its session, listed with its changes, removed only with --force",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    await using model = await startFakeModel([{ toolCalls: [write("note.txt")] }, { text: "One." }, {
      text: "Two.",
    }]);
    const env = { ...repo.env, ...modelEnv(model.url) };
    const first = await runTern({
      cwd: repo.root,
      args: ["-w", "feat", "-p", "write", "--approve", "all"],
      env,
    });
    assertEquals([first.code, first.stdout], [0, "One.\n"], first.stderr);
    const top = join(repo.root, ".tern/local/worktrees/feat");
    assertEquals(await Deno.readTextFile(join(top, "note.txt")), "x\n");
    assertEquals(await exists(join(repo.root, "note.txt")), false, "the main tree has no note.txt");
    const again = await runTern({ cwd: repo.root, args: ["--worktree", "feat", "-p", "again"], env });
    assertEquals([again.code, again.stdout], [0, "Two.\n"], again.stderr);
    assertStringIncludes(
      again.stderr,
      "tern: working in worktree feat (branch tern/feat) at .tern/local/worktrees/feat",
    );
    const listed = await runTern({ cwd: repo.root, args: ["worktrees"], env: repo.env });
    assertEquals(listed.code, 0, listed.stderr);
    assertStringIncludes(
      listed.stdout,
      "feat  tern/feat  .tern/local/worktrees/feat  1 changed file  last session:",
    );
    assertStringIncludes(listed.stdout, '-p · 1 prompt · "again"');
    const refused = await runTern({ cwd: repo.root, args: ["worktrees", "remove", "feat"], env: repo.env });
    assertEquals(refused.code, 2);
    assertStringIncludes(
      refused.stderr,
      "worktree feat has 1 changed file(s); commit them on tern/feat, or pass --force",
    );
    assertEquals(await exists(join(top, "note.txt")), true);
    const removed = await runTern({
      cwd: repo.root,
      args: ["worktrees", "remove", "feat", "--force"],
      env: repo.env,
    });
    assertEquals(removed.code, 0, removed.stderr);
    assertStringIncludes(removed.stdout, "removed worktree feat; its branch tern/feat is kept");
    assertEquals(await exists(top), false);
    assertEquals(await git(repo.root, "branch", "--list", "tern/feat"), "  tern/feat\n");
    const none = await runTern({ cwd: repo.root, args: ["worktrees"], env: repo.env });
    assertStringIncludes(none.stdout, "tern has made no worktrees in this project");
  },
);

testNeeding(["git"], "tern -w refuses a NAME that is not a plain name, and makes nothing", async () => {
  await using repo = await plantedRepo({ "a.txt": "a\n" });
  for (const name of ["../x", "a/b", ".hidden", "-x", "x".repeat(64), "a b"]) {
    const run = await runTern({ cwd: repo.root, args: [`--worktree=${name}`, "-p", "hi"], env: repo.env });
    assertEquals(run.code, 2, `${name}: ${run.stderr}`);
    assertStringIncludes(run.stderr, "cannot name a worktree: use letters, digits, - and _");
  }
  const empty = await runTern({ cwd: repo.root, args: ["-w", " ", "-p", "hi"], env: repo.env });
  assertEquals([empty.code, empty.stderr.split("\n")[0]], [2, "tern: --worktree needs a value"]);
  assertEquals(await exists(join(repo.root, "../x")), false);
  assertEquals(
    await git(repo.root, "worktree", "list", "--porcelain").then((out) => out.match(/^worktree /gm)?.length),
    1,
  );
});

Deno.test("tern -w outside a git repository says so in one line and exits 2", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const run = await runTern({ cwd: project.root, args: ["-w", "feat", "-p", "hi"] });
  assertEquals(run.code, 2);
  assertEquals(
    run.stderr,
    "tern: worktrees need a git repository, and this directory is not in one (git init, or cd into a repository)\n",
  );
  const list = await runTern({ cwd: project.root, args: ["worktrees", "remove", "feat"] });
  assertEquals(list.code, 2);
  assertStringIncludes(list.stderr, "tern made no worktree named feat here");
});

testNeeding(
  ["git"],
  "tern worktrees remove refuses a worktree tern did not make, and -w a folder it did not make",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    await git(repo.root, "worktree", "add", "-q", "-b", "mine", "../mine");
    const run = await runTern({
      cwd: repo.root,
      args: ["worktrees", "remove", "mine", "--force"],
      env: repo.env,
    });
    assertEquals(run.code, 2);
    assertStringIncludes(run.stderr, "tern made no worktree named mine here; it removes only its own");
    assertEquals(await exists(join(repo.root, "../mine/a.txt")), true);
    // A folder in tern's place (its state bound by a first run) that tern did not make is left alone too.
    await using model = await startFakeModel([{ text: "Made." }]);
    const first = await runTern({
      cwd: repo.root,
      args: ["-w", "other", "-p", "hi"],
      env: { ...repo.env, ...modelEnv(model.url) },
    });
    assertEquals(first.code, 0, first.stderr);
    await Deno.mkdir(join(repo.root, ".tern/local/worktrees/hand"));
    await Deno.writeTextFile(join(repo.root, ".tern/local/worktrees/hand/keep.txt"), "mine\n");
    const open = await runTern({ cwd: repo.root, args: ["-w", "hand", "-p", "hi"], env: repo.env });
    assertEquals(open.code, 2);
    assertStringIncludes(open.stderr, ".tern/local/worktrees/hand is there, but tern did not make it");
    assertEquals(await Deno.readTextFile(join(repo.root, ".tern/local/worktrees/hand/keep.txt")), "mine\n");
    const bad = await runTern({ cwd: repo.root, args: ["worktrees", "prune"], env: repo.env });
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "unknown worktrees action 'prune'");
  },
);

testNeeding(
  ["git"],
  "a link planted in place of tern's worktree is never followed: not removed, reused or listed as one",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    await using model = await startFakeModel([{ text: "Made." }]);
    const made = await runTern({
      cwd: repo.root,
      args: ["-w", "feat", "-p", "hi"],
      env: { ...repo.env, ...modelEnv(model.url) },
    });
    assertEquals(made.code, 0, made.stderr);
    const top = join(repo.root, ".tern/local/worktrees/feat");
    const victim = join(repo.root, "../victim");
    await Deno.mkdir(victim);
    await Deno.writeTextFile(join(victim, "precious.txt"), "keep\n");
    await Deno.rename(top, `${top}-moved`);
    await Deno.symlink(victim, top);
    const removed = await runTern({
      cwd: repo.root,
      args: ["worktrees", "remove", "feat", "--force"],
      env: repo.env,
    });
    assertEquals(removed.code, 2);
    assertStringIncludes(
      removed.stderr,
      "is no longer the folder tern made (replaced, or a link); tern leaves it alone",
    );
    assertEquals(await Deno.readTextFile(join(victim, "precious.txt")), "keep\n");
    const reused = await runTern({ cwd: repo.root, args: ["-w", "feat", "-p", "hi"], env: repo.env });
    assertEquals(reused.code, 2);
    assertStringIncludes(reused.stderr, "is no longer the folder tern made");
    const listed = await runTern({ cwd: repo.root, args: ["worktrees"], env: repo.env });
    assertStringIncludes(
      listed.stdout,
      "feat  tern/feat  .tern/local/worktrees/feat  (not the folder tern made",
    );
    assertEquals((await Deno.lstat(top)).isSymlink, true, "the link itself is left too");
  },
);

testNeeding(["git"], "a worktree record a repository brings lists nothing and removes nothing", async () => {
  const record = JSON.stringify({
    version: 1,
    worktrees: { victim: { branch: "tern/victim", prefix: "", dev: 0, ino: 0, created: "2026-01-01" } },
    seal: "0".repeat(64),
  });
  await using repo = await plantedRepo({
    "a.txt": "a\n",
    ".tern/local/worktrees.json": record,
    ".tern/local/worktrees/victim/precious.txt": "keep\n",
  });
  const listed = await runTern({ cwd: repo.root, args: ["worktrees"], env: repo.env });
  assertEquals([listed.code, listed.stdout], [
    0,
    "tern has made no worktrees in this project (tern -w NAME makes one).\n",
  ]);
  const removed = await runTern({
    cwd: repo.root,
    args: ["worktrees", "remove", "victim", "--force"],
    env: repo.env,
  });
  assertEquals(removed.code, 2);
  assertStringIncludes(removed.stderr, "tern made no worktree named victim here");
  assertEquals(
    await Deno.readTextFile(join(repo.root, ".tern/local/worktrees/victim/precious.txt")),
    "keep\n",
  );
});

testNeeding(
  ["git"],
  "tern -w in a clone that brought .tern/local/: moved aside first, then the worktree is tern's own",
  async () => {
    await using repo = await plantedRepo({
      "a.txt": "a\n",
      ".tern/local/worktrees/feat/planted.txt": "planted\n",
    });
    await using model = await startFakeModel([{ text: "Made." }]);
    const run = await runTern({
      cwd: repo.root,
      args: ["-w", "feat", "-p", "hi"],
      env: { ...repo.env, ...modelEnv(model.url) },
    });
    assertEquals([run.code, run.stdout], [0, "Made.\n"], run.stderr);
    assertStringIncludes(run.stderr, "made worktree feat");
    assertEquals(await exists(join(repo.root, ".tern/local/worktrees/feat/planted.txt")), false);
    assertEquals(await Deno.readTextFile(join(repo.root, ".tern/local/worktrees/feat/a.txt")), "a\n");
  },
);

testNeeding(
  ["git"],
  "tern -w runs nothing a hostile .git/config names: no filter, no hook, no fsmonitor",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n", ".gitattributes": "* filter=evil\n" });
    const marks = join(repo.root, "../marks");
    await Deno.mkdir(marks);
    const hooks = join(repo.root, "../hooks");
    await Deno.mkdir(hooks);
    for (const hook of ["post-checkout", "reference-transaction", "post-index-change"]) {
      await Deno.writeTextFile(join(hooks, hook), `#!/bin/sh\ntouch ${marks}/${hook}\n`);
      await Deno.chmod(join(hooks, hook), 0o755);
    }
    // As an unpacked archive would bring it: the repository's own config names programs.
    for (
      const [key, value] of [
        ["filter.evil.smudge", `touch ${marks}/smudge; cat`],
        ["filter.evil.clean", `touch ${marks}/clean; cat`],
        ["filter.evil.process", `touch ${marks}/process`],
        ["filter.evil.required", "true"],
        ["core.hooksPath", hooks],
        ["core.fsmonitor", `touch ${marks}/fsmonitor`],
      ]
    ) await git(repo.root, "config", key, value);
    await using model = await startFakeModel([{ toolCalls: [write("new.txt")] }, { text: "Made." }]);
    const env = { ...repo.env, ...modelEnv(model.url) };
    const run = await runTern({ cwd: repo.root, args: ["-w", "feat", "-p", "hi", "--approve", "all"], env });
    assertEquals([run.code, run.stdout], [0, "Made.\n"], run.stderr);
    const listed = await runTern({ cwd: repo.root, args: ["worktrees"], env: repo.env });
    assertStringIncludes(listed.stdout, "1 changed file");
    const removed = await runTern({
      cwd: repo.root,
      args: ["worktrees", "remove", "feat", "--force"],
      env: repo.env,
    });
    assertEquals(removed.code, 0, removed.stderr);
    assertEquals(
      [...Deno.readDirSync(marks)].map((entry) => entry.name),
      [],
      "git ran a program the repository named",
    );
  },
);
