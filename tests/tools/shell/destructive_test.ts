import { assertEquals } from "../../support/assert.ts";
import { destructiveReason } from "../../../src/tools/shell/destructive.ts";

Deno.test("destructiveReason() names commands that delete or discard project state", () => {
  const destructive = [
    "git clean -fdx",
    "git clean --force -d",
    "git -C sub clean -f",
    "git reset --hard HEAD~1",
    "git checkout -- .",
    "git checkout .",
    "git checkout -f main",
    "git restore src/a.ts",
    "git restore --staged --worktree a.ts",
    "git stash drop",
    "git stash clear",
    "git branch -D feature",
    "git rm -r src",
    "rm -r build",
    "rm -rf src",
    "rm -R docs",
    "rm --recursive x",
    "find . -name '*.ts' -delete",
    "find / -delete",
    "find src -exec rm {} +",
    "shred secret.txt",
    "truncate -s 0 data.db",
    "npm test && git clean -fdx",
    "echo $(git reset --hard)",
    "bash -c 'rm -rf dist'",
    "eval git clean -fd",
  ];
  for (const command of destructive) {
    assertEquals(typeof destructiveReason(command), "string", command);
  }
});

Deno.test("destructiveReason() lets everyday commands through", () => {
  const everyday = [
    "ls -la",
    "deno task test",
    "git status",
    "git diff",
    "git checkout -b new-branch",
    "git checkout main",
    "git restore --staged a.ts",
    "git stash",
    "git stash pop",
    "git clean -n",
    "git reset HEAD a.ts",
    "git branch -d merged",
    "rm build/out.txt",
    "find . -name '*.ts'",
    "echo 'rm -rf /' > notes.txt",
    "grep -r 'git clean -fdx' docs",
  ];
  for (const command of everyday) assertEquals(destructiveReason(command), undefined, command);
});

Deno.test("destructiveReason() reads a 1 MB command in one pass", () => {
  const long = `echo ${"a".repeat(1_000_000)} && git clean -fdx`;
  assertEquals(destructiveReason(long), "git clean -f deletes untracked files");
});
