import { assert, assertEquals } from "../../support/assert.ts";
import { Snapshots } from "../../../src/agent/log/snapshots.ts";
import { tempProject } from "../../support/temp_project.ts";
import { testNeeding } from "../../support/requires.ts";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

testNeeding(
  ["git"],
  "Snapshots restore changed, deleted and created files; ignored files and .tern stay as they are",
  async () => {
    await using project = await tempProject({
      "a.txt": "A\n",
      "dir/b.txt": "B\n",
      ".gitignore": "build/\n",
      "build/out.bin": "old build",
    });
    const root = project.root;
    const snapshots = await Snapshots.open(root);
    assert(snapshots, "git is installed here");
    const tree = await snapshots.take();
    await Deno.writeTextFile(`${root}/a.txt`, "A changed\n");
    await Deno.remove(`${root}/dir`, { recursive: true });
    await Deno.writeTextFile(`${root}/new.txt`, "new\n");
    await Deno.writeTextFile(`${root}/build/out.bin`, "new build");
    const changes = await snapshots.changes(tree);
    assertEquals(changes.paths, ["a.txt", "dir/b.txt", "new.txt"]);
    await snapshots.restore(tree);
    assertEquals(await Deno.readTextFile(`${root}/a.txt`), "A\n");
    assertEquals(await Deno.readTextFile(`${root}/dir/b.txt`), "B\n");
    assertEquals(await exists(`${root}/new.txt`), false);
    assertEquals(await Deno.readTextFile(`${root}/build/out.bin`), "new build");
    assertEquals((await snapshots.changes(tree)).paths, []);
  },
);

testNeeding(["git"], "Snapshots never touch the user's own repository, dirty or not", async () => {
  await using project = await tempProject({ "a.txt": "A\n", "b.txt": "B\n" });
  const root = project.root;
  await git(root, "init", "-q");
  await git(root, "add", "a.txt");
  await git(root, "commit", "-qm", "one");
  await Deno.writeTextFile(`${root}/a.txt`, "A dirty\n"); // unstaged change in the user's repo
  // The user's own files, as git shows them (tern's own folder apart: see below).
  const status = () => git(root, "status", "--porcelain", "--", ".", ":!.tern");
  const before = [await status(), await git(root, "log", "--oneline")];
  const indexBefore = await Deno.readFile(`${root}/.git/index`);
  const snapshots = (await Snapshots.open(root))!;
  const tree = await snapshots.take();
  await Deno.writeTextFile(`${root}/b.txt`, "B changed\n");
  await snapshots.restore(tree);
  assertEquals(await Deno.readTextFile(`${root}/b.txt`), "B\n");
  assertEquals(await Deno.readTextFile(`${root}/a.txt`), "A dirty\n");
  assertEquals([await status(), await git(root, "log", "--oneline")], before);
  assertEquals(await Deno.readFile(`${root}/.git/index`), indexBefore);
  // tern's state is ignored by its own .gitignore; the team's files beside it are not.
  assertEquals(await git(root, "check-ignore", ".tern/local/owner.json"), ".tern/local/owner.json\n");
  await Deno.writeTextFile(`${root}/.tern/settings.json`, "{}\n");
  assertEquals(
    await git(root, "status", "--porcelain", "--untracked-files=all", ".tern"),
    "?? .tern/.gitignore\n?? .tern/settings.json\n",
  );
});

Deno.test("Snapshots.open() is null when .tern leads outside the project", async () => {
  await using outside = await tempProject();
  await using project = await tempProject({ "a.txt": "A\n" });
  await Deno.symlink(outside.root, `${project.root}/.tern`);
  assertEquals(await Snapshots.open(project.root), null);
  assertEquals([...Deno.readDirSync(outside.root)].length, 0);
});

Deno.test("the shadow git runs nothing, even when its own config names an fsmonitor, a filter or a hook", async () => {
  await using project = await tempProject({
    "a.txt": "A\r\n",
    ".gitattributes": "* filter=evil text eol=lf ident\n",
  });
  const root = project.root;
  const marker = `${project.outside}/ran`;
  const snapshots = (await Snapshots.open(root))!;
  const gitDir = `${root}/.tern/local/snapshots/git`;
  assertEquals(await exists(`${gitDir}/hooks`), false, "no template: no hooks folder at all");
  // As if tern's own config were tampered with: the command line still wins.
  const run = `"sh -c 'touch ${marker}' #"`;
  await Deno.writeTextFile(
    `${gitDir}/config`,
    (await Deno.readTextFile(`${gitDir}/config`)) +
      `[core]\n\tfsmonitor = ${run}\n\thooksPath = ${project.outside}\n` +
      `[filter "evil"]\n\tclean = ${run}\n\tsmudge = ${run}\n`,
  );
  await Deno.writeTextFile(`${project.outside}/post-index-change`, `#!/bin/sh\ntouch ${marker}\n`);
  await Deno.chmod(`${project.outside}/post-index-change`, 0o755);
  const tree = await snapshots.take();
  await Deno.writeTextFile(`${root}/a.txt`, "changed\n");
  await snapshots.restore(tree);
  assertEquals(await exists(marker), false, "git ran a command from its config");
  assertEquals(
    await Deno.readTextFile(`${root}/a.txt`),
    "A\r\n",
    "bytes back as they were: no filter, no eol",
  );
});

testNeeding(
  ["git"],
  "Snapshots.settled() resolves only after the snapshot in flight has been taken",
  async () => {
    await using project = await tempProject({ "a.txt": "A\n" });
    const snapshots = (await Snapshots.open(project.root))!;
    let taken = false;
    // As a turn's end starts one in the background, and the session closes right after.
    snapshots.take().then(() => taken = true);
    await snapshots.settled();
    assert(taken, "settled before the snapshot was taken");
    assertEquals(await exists(`${project.root}/.tern/local/snapshots/git/index.lock`), false);
  },
);
