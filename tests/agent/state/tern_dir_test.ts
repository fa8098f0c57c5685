import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../support/assert.ts";
import { boundStatePath, stateDir, stateStatus } from "../../../src/agent/state/tern_dir.ts";
import { claimState } from "../../../src/agent/state/claim_state.ts";
import { tempProject } from "../../support/temp_project.ts";
import { plantedRepo } from "../../support/planted_repo.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("stateDir() makes .tern/local bound to this directory; boundStatePath() finds it", async () => {
  await using project = await tempProject();
  assertEquals(stateStatus(project.root), { kind: "none" });
  assertEquals(boundStatePath(project.root, "sessions"), undefined);
  const sessions = stateDir(project.root, "sessions");
  assertEquals(sessions, `${project.root}/.tern/local/sessions`);
  assertEquals(stateStatus(project.root), { kind: "bound", dir: `${project.root}/.tern/local` });
  assertEquals(boundStatePath(project.root, "sessions"), sessions);
  const record = JSON.parse(await Deno.readTextFile(`${project.root}/.tern/local/owner.json`));
  assertEquals(record.root.ino, (await Deno.stat(project.root)).ino);
  assertEquals(await Deno.readTextFile(`${project.root}/.tern/local/.gitignore`), "*\n");
});

Deno.test("a .tern/local committed in a repository is foreign in the clone, never read, and moved aside once", async () => {
  // The attacker even copies a real owner record from their own machine: it names their folders, not ours.
  await using mine = await tempProject();
  stateDir(mine.root, "");
  const record = await Deno.readTextFile(`${mine.root}/.tern/local/owner.json`);
  await using repo = await plantedRepo({
    ".tern/local/owner.json": record,
    ".tern/local/trust.json": JSON.stringify({ version: 2, decision: "trusted", digest: "x" }),
    ".tern/local/sessions/1.jsonl": "{}\n",
  });
  assertEquals(stateStatus(repo.root).kind, "foreign");
  assertEquals(boundStatePath(repo.root, "trust.json"), undefined);
  assertThrows(() => stateDir(repo.root, "sessions"), Error, "was not made by tern in this directory");
  const line = claimState(repo.root)!;
  assertStringIncludes(line, "ignored .tern/local/ (moved to .tern/ignored-local-");
  assertStringIncludes(line, "files a repository brings or a copy carries grant nothing");
  assertEquals(await exists(`${repo.root}/.tern/local`), false);
  assertEquals(claimState(repo.root), undefined, "said once");
  stateDir(repo.root, "sessions");
  assertEquals(stateStatus(repo.root).kind, "bound");
  assertEquals(await exists(`${repo.root}/.tern/local/trust.json`), false);
});

Deno.test("a copy of a project does not carry its state; a moved project keeps it", async () => {
  await using project = await tempProject();
  stateDir(project.root, "sessions");
  const copy = `${project.outside}/copy`;
  const cp = await new Deno.Command("cp", { args: ["-a", project.root, copy] }).output();
  assert(cp.success);
  assertEquals(stateStatus(copy).kind, "foreign");
  const moved = `${project.outside}/moved`;
  await Deno.rename(project.root, moved);
  assertEquals(stateStatus(moved), { kind: "bound", dir: `${moved}/.tern/local` });
  await Deno.rename(moved, project.root);
});

Deno.test("a .tern that is a link or a file holds no state, and claimState() says so", async () => {
  await using project = await tempProject();
  await Deno.symlink(project.outside, `${project.root}/.tern`);
  assertEquals(stateStatus(project.root).kind, "unusable");
  assertThrows(() => stateDir(project.root, "sessions"), Error, "tern keeps no state in this project");
  assertStringIncludes(claimState(project.root)!, ".tern is not a folder");
  assertEquals([...Deno.readDirSync(project.outside)].map((entry) => entry.name), ["secret.txt"]);
});
