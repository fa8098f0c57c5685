import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { Snapshots } from "../../../src/agent/log/snapshots.ts";
import { snapshotsSealed } from "../../../src/agent/log/snapshot_seal.ts";
import { checkOwnState } from "../../../src/agent/state/check.ts";
import { tempProject } from "../../support/temp_project.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("the undo repository tern made is sealed; one a pull changed is never run and moved aside", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const marker = `${project.outside}/filter-ran`;
  assert(await Snapshots.open(project.root), "git is installed here");
  const gitDir = `${project.root}/.tern/local/snapshots/git`;
  await (await Snapshots.open(project.root))!.take();
  assert(snapshotsSealed(project.root), "a snapshot (the index changes) keeps the seal");
  assertEquals(checkOwnState(project.root), undefined);
  // What a git pull (or an archive) could write into the shadow repository: a filter that runs a program.
  await Deno.writeTextFile(`${gitDir}/info/attributes`, "* filter=evil\n");
  await Deno.writeTextFile(`${gitDir}/config`, `[filter "evil"]\n\tclean = touch ${marker}\n`, {
    append: true,
  });
  assertEquals(snapshotsSealed(project.root), false);
  assertEquals(await Snapshots.open(project.root), null, "git is never run on it");
  const line = checkOwnState(project.root)!;
  assertStringIncludes(line, "moved aside .tern/local/snapshots (to .tern/local/aside/)");
  assertEquals(await exists(`${project.root}/.tern/local/snapshots`), false);
  const fresh = await Snapshots.open(project.root);
  await fresh!.take();
  assertEquals(await exists(marker), false, "the planted filter ran");
});

Deno.test("a planted commondir, alternates or a shadow repository without a seal is not tern's", async () => {
  for (const [path, text] of [["commondir", "../../../elsewhere\n"], ["objects/info/alternates", "/tmp\n"]]) {
    await using project = await tempProject();
    assert(await Snapshots.open(project.root));
    await Deno.writeTextFile(`${project.root}/.tern/local/snapshots/git/${path}`, text);
    assertEquals(snapshotsSealed(project.root), false, path);
  }
  await using project = await tempProject();
  assert(await Snapshots.open(project.root));
  await Deno.remove(`${project.root}/.tern/local/snapshots/git/tern-seal.json`);
  assertEquals(await Snapshots.open(project.root), null);
});

Deno.test("two sessions making the undo repository at once both get the one that won, sealed", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const [a, b] = await Promise.all([Snapshots.open(project.root), Snapshots.open(project.root)]);
  assert(a && b, "git is installed here");
  assertEquals(await a.take(), await b.take());
  assert(snapshotsSealed(project.root));
  const left = [...Deno.readDirSync(`${project.root}/.tern/local/snapshots`)].map((entry) => entry.name);
  assertEquals(left, ["git"], "no half-made repository is left behind");
});
