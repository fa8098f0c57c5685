/**
 * What of git's surface the sandbox guards (git_surface.ts) and how a nested repository is tamed
 * (git_tame.ts), on temp projects: the config's pointers, the read-only list, and the undo after a command.
 */
import { assertEquals } from "../../support/assert.ts";
import { join } from "node:path";
import { configPointers, gitSurface, undoGitSurface } from "../../../src/tools/shell/git_surface.ts";
import { gitDirOf, tameNested } from "../../../src/tools/shell/git_tame.ts";
import { tempProject } from "../_helpers.ts";
import { git } from "../../support/planted_repo.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("configPointers() reads core.hooksPath and every include path, quoted or not, past comments", () => {
  const text = [
    "[core]",
    '\thooksPath = "tools/hooks" # the team\'s hooks',
    "[include]",
    "\tpath = ../team.gitconfig",
    '[includeIf "gitdir:~/work/"]',
    "\tpath = /etc/work.gitconfig",
    "[user]",
    "\tpath = not-an-include",
  ].join("\n");
  assertEquals(configPointers(text), {
    hooksPath: "tools/hooks",
    includes: ["../team.gitconfig", "/etc/work.gitconfig"],
  });
  assertEquals(configPointers(""), { hooksPath: undefined, includes: [] });
});

Deno.test("gitSurface() names the hooks folder, includes, modules, worktrees and populated gitlinks", async () => {
  await using p = await tempProject({ "a.txt": "a\n", ".githooks/pre-commit": "exit 0\n", "inc.cfg": "" });
  await git(p.root, "init", "-q");
  await git(p.root, "config", "core.hooksPath", ".githooks");
  await git(p.root, "config", "--add", "include.path", "../inc.cfg");
  await git(p.root, "config", "--add", "include.path", "../missing.cfg");
  await git(p.root, "config", "--add", "include.path", "~/outside.cfg");
  await git(p.root, "init", "-q", "sm");
  await git(join(p.root, "sm"), "commit", "-q", "--allow-empty", "-m", "s");
  await git(p.root, "add", "sm");
  await Deno.mkdir(join(p.root, ".git/modules/lib/hooks"), { recursive: true });
  await Deno.writeTextFile(join(p.root, ".git/modules/lib/config"), "");
  await Deno.mkdir(join(p.root, ".git/worktrees/w"), { recursive: true });
  await Deno.writeTextFile(join(p.root, ".git/worktrees/w/commondir"), "../..\n");
  const surface = gitSurface(p.root, new Map())!;
  assertEquals(surface.readOnly.sort(), [
    ".git/modules/lib/config",
    ".git/modules/lib/hooks",
    ".git/worktrees/w/commondir",
    ".githooks",
    "inc.cfg",
    "sm/.git/config",
    "sm/.git/hooks",
  ]);
  assertEquals([surface.uncovered, surface.missingDirs, surface.modules], [["missing.cfg"], [], ["lib"]]);
  assertEquals(Object.keys(surface.nested), ["sm"]);
});

Deno.test("undoGitSurface() tames a gitlink staged during the command and a new module, not one that was there", async () => {
  await using p = await tempProject({ "a.txt": "a\n" });
  await git(p.root, "init", "-q");
  await git(p.root, "init", "-q", "old");
  await git(join(p.root, "old"), "commit", "-q", "--allow-empty", "-m", "o");
  await git(join(p.root, "old"), "config", "core.sparseCheckout", "true"); // the user's own setting
  await git(p.root, "add", "old");
  const before = gitSurface(p.root, new Map());
  // What the command does:
  await git(p.root, "init", "-q", "sm");
  await git(join(p.root, "sm"), "commit", "-q", "--allow-empty", "-m", "s");
  await git(join(p.root, "sm"), "config", "core.fsmonitor", "touch pwned");
  await Deno.writeTextFile(join(p.root, "sm/.git/hooks/post-checkout"), "#!/bin/sh\n");
  await git(p.root, "add", "sm");
  await Deno.mkdir(join(p.root, ".git/modules/new"), { recursive: true });
  await Deno.writeTextFile(join(p.root, ".git/modules/new/config"), "[alias]\n\tst = !touch pwned\n");
  assertEquals(undoGitSurface(p.root, before).sort(), [
    "cleaned .git/modules/new/config (removed alias.st)",
    "cleaned sm/.git/config (removed core.fsmonitor)",
    "removed sm/.git/hooks/post-checkout (created)",
  ]);
  assertEquals((await git(join(p.root, "old"), "config", "core.sparseCheckout")).trim(), "true");
  assertEquals(await exists(join(p.root, "sm/.git/hooks/post-checkout")), false);
});

Deno.test("tameNested() removes a gitdir file leading out of the project and ignores a path outside the root", async () => {
  await using p = await tempProject({ "sm/.git": "gitdir: /etc\n", "in/.git": "gitdir: ../modules/in\n" });
  await Deno.mkdir(join(p.root, "modules/in"), { recursive: true });
  await Deno.writeTextFile(join(p.root, "modules/in/config"), "[core]\n\tpager = touch pwned\n");
  assertEquals(gitDirOf(p.root, "sm"), "outside");
  assertEquals(tameNested(p.root, "sm"), ["removed sm/.git (a gitdir file leading out of the project)"]);
  assertEquals(await exists(join(p.root, "sm/.git")), false);
  assertEquals(tameNested(p.root, "in"), ["cleaned modules/in/config (removed core.pager)"]);
  assertEquals(gitDirOf(p.root, "../outside"), undefined);
  assertEquals(tameNested(p.root, "../outside"), []);
});
