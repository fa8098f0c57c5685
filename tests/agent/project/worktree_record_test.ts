import { join } from "node:path";
import { assertEquals } from "../../support/assert.ts";
import { tempProject } from "../../support/temp_project.ts";
import {
  readRecord,
  sameFolder,
  type WorktreeEntry,
  worktreesFolder,
  writeRecord,
} from "../../../src/agent/project/worktree_record.ts";
import { changedFiles } from "../../../src/agent/project/worktrees.ts";
import { git } from "../../support/planted_repo.ts";
import { testNeeding } from "../../support/requires.ts";

function entryFor(path: string): WorktreeEntry {
  const info = Deno.lstatSync(path);
  return { branch: "tern/a", prefix: "", dev: info.dev, ino: info.ino ?? 0, created: "2026-12-02T00:00:00Z" };
}

Deno.test("readRecord() reads what writeRecord() sealed, and nothing once the file was changed by anyone else", async () => {
  await using project = await tempProject();
  const folder = join(worktreesFolder(project.root), "a");
  await Deno.mkdir(folder);
  writeRecord(project.root, { a: entryFor(folder) });
  assertEquals(Object.keys(readRecord(project.root)), ["a"]);
  const file = join(project.root, ".tern/local/worktrees.json");
  const text = await Deno.readTextFile(file);
  await Deno.writeTextFile(file, text.replace('"tern/a"', '"tern/b"'));
  assertEquals(readRecord(project.root), {});
});

Deno.test("sameFolder() is true only for the very folder recorded: not a link to it, not a new one there", async () => {
  await using project = await tempProject();
  const folder = join(worktreesFolder(project.root), "a");
  await Deno.mkdir(folder);
  const entry = entryFor(folder);
  assertEquals(sameFolder(folder, entry), "same");
  await Deno.rename(folder, `${folder}-moved`);
  assertEquals(sameFolder(folder, entry), "missing");
  await Deno.symlink(`${folder}-moved`, folder);
  assertEquals(sameFolder(folder, entry), "other");
  await Deno.remove(folder);
  await Deno.mkdir(folder);
  assertEquals(sameFolder(folder, entry), "other");
});

testNeeding(
  ["git"],
  "changedFiles() counts a rename once and untracked files each, not tern's own .tern/.gitignore",
  async () => {
    await using project = await tempProject({ "a.txt": "a\n" });
    await git(project.root, "init", "-q");
    await git(project.root, "add", "a.txt");
    await git(project.root, "commit", "-qm", "a");
    assertEquals(await changedFiles(project.root), 0);
    await git(project.root, "mv", "a.txt", "b.txt");
    await Deno.writeTextFile(join(project.root, "new.txt"), "n\n");
    await Deno.mkdir(join(project.root, ".tern"), { recursive: true });
    const { TERN_GITIGNORE } = await import("../../../src/agent/state/tern_dir.ts");
    await Deno.writeTextFile(join(project.root, ".tern/.gitignore"), TERN_GITIGNORE);
    assertEquals(await changedFiles(project.root), 2);
    await Deno.writeTextFile(join(project.root, ".tern/.gitignore"), "/other/\n");
    assertEquals(await changedFiles(project.root), 3);
  },
);
