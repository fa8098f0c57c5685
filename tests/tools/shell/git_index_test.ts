/** Reading gitlinks out of a git index without git: every index version git writes, and bad input. */
import { assertEquals } from "../../support/assert.ts";
import { join } from "node:path";
import { gitlinks, gitlinksIn } from "../../../src/tools/shell/git_index.ts";
import { tempProject } from "../_helpers.ts";
import { git } from "../../support/planted_repo.ts";

/** A repository with two files and two gitlinks (one deep), index at `version`. */
async function repoWithGitlinks(root: string, version: string): Promise<string> {
  await git(root, "init", "-q");
  await Deno.mkdir(join(root, "deep/er"), { recursive: true });
  await Deno.writeTextFile(join(root, "a.txt"), "a\n");
  await Deno.writeTextFile(join(root, "deep/er/b.txt"), "b\n");
  await git(root, "add", "-A");
  const id = "2a78bae35e1e1b97f4697d499892807682ae402f";
  await git(root, "update-index", "--add", "--cacheinfo", `160000,${id},deep/er/sm`);
  await git(root, "update-index", "--add", "--cacheinfo", `160000,${id},sm`);
  await git(root, "update-index", "--index-version", version);
  // An extended flag (skip-worktree) makes version 3 entries two bytes longer.
  if (version !== "2") await git(root, "update-index", "--skip-worktree", "a.txt");
  return join(root, ".git/index");
}

for (const version of ["2", "3", "4"]) {
  Deno.test(`gitlinks() finds every gitlink in an index of version ${version}`, async () => {
    await using p = await tempProject();
    assertEquals(gitlinksIn(await repoWithGitlinks(p.root, version)), ["deep/er/sm", "sm"]);
  });
}

Deno.test("gitlinks() is undefined for what is not an index it reads: wrong magic, unknown version, cut short", async () => {
  await using p = await tempProject();
  const bytes = await Deno.readFile(await repoWithGitlinks(p.root, "2"));
  assertEquals(gitlinks(new TextEncoder().encode("not an index at all")), undefined);
  const version9 = bytes.slice();
  version9[7] = 9;
  assertEquals(gitlinks(version9), undefined);
  assertEquals(gitlinks(bytes.subarray(0, 80)), undefined);
  assertEquals(gitlinks(bytes.subarray(0, 5)), undefined);
  assertEquals(gitlinksIn(join(p.root, "missing")), undefined);
});
