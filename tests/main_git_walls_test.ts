/**
 * git cannot be turned into an executor by a sandboxed command, end to end: the repository is committed and
 * cloned, the real CLI runs in the clone under `--approve ask` (sandboxed commands run unasked), the model's
 * command plants what would make git run a payload, and then the user's own git runs outside the sandbox.
 * The payload would touch a marker outside the project: it must not be there.
 */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { join } from "node:path";
import { finished, runTern, spawnTern } from "./support/cli.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { git, plantedRepo } from "./support/planted_repo.ts";
import { eventually } from "./support/processes.ts";
import { testNeeding } from "./support/requires.ts";

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

const command = (text: string, background = false): ScriptedTurn => ({
  toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command: text, background }) }],
});

type Sent = { role: string; content: string };
const lastSent = (body: Record<string, unknown>) => (body.messages as Sent[]).at(-1)!.content;

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** The user's own git in `cwd`, outside tern and its sandbox (no global or system config). */
async function usersGit(cwd: string, ...args: string[]): Promise<string> {
  return await git(cwd, ...args);
}

/** Runs `tern -p go` in `root` with `turns` from the fake model; returns the run and what the model was sent. */
async function ternRuns(root: string, env: Record<string, string>, turns: ScriptedTurn[]) {
  await using model = await startFakeModel([...turns, { text: "Done." }]);
  const run = await runTern({ cwd: root, args: ["-p", "go"], env: { ...env, ...modelEnv(model.url) } });
  return { run, sent: model.requests.map(lastSent) };
}

testNeeding(
  ["bwrap", "git"],
  "a nested repository staged as a submodule with an fsmonitor runs nothing in the user's git status",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    const marker = join(repo.home, "..", "fsmonitor-ran");
    const m = "-c user.name=m -c user.email=m@m";
    const attack = [
      `git init -q sm && git -C sm ${m} commit -q --allow-empty -m s`,
      `git -C sm config core.fsmonitor 'touch ${marker}; false'`,
      "git add sm 2>/dev/null; git ls-files -s sm | cut -c1-6; git -C sm config core.fsmonitor >/dev/null && echo set",
    ].join(" && ");
    const { run, sent } = await ternRuns(repo.root, repo.env, [command(attack)]);
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(
      sent[1],
      "160000\nset",
      "inside the sandbox the gitlink and the fsmonitor were made",
    );
    assertStringIncludes(sent[1], "cleaned sm/.git/config (removed core.fsmonitor)");
    await usersGit(repo.root, "status");
    await usersGit(repo.root, "commit", "-qm", "the user's commit");
    assertEquals(await exists(marker), false, "the user's git status ran the nested repository's fsmonitor");
  },
);

testNeeding(
  ["bwrap", "git"],
  "the folder core.hooksPath names cannot be written from the sandbox, nor made when missing",
  async () => {
    await using repo = await plantedRepo({ ".githooks/pre-commit": "#!/bin/sh\nexit 0\n", "a.txt": "a\n" });
    const marker = join(repo.home, "..", "hook-ran");
    await usersGit(repo.root, "config", "core.hooksPath", ".githooks");
    const payload = `printf '#!/bin/sh\\ntouch ${marker}\\n'`;
    const attack = `${payload} > .githooks/pre-commit 2>/dev/null || echo refused; ` +
      `mv .githooks gone 2>/dev/null || echo kept; ls .githooks`;
    const { run, sent } = await ternRuns(repo.root, repo.env, [command(attack)]);
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(sent[1], "refused\nkept\npre-commit");
    assertEquals(await Deno.readTextFile(join(repo.root, ".githooks/pre-commit")), "#!/bin/sh\nexit 0\n");
    await usersGit(repo.root, "commit", "--allow-empty", "-qm", "the user's commit");
    assertEquals(await exists(marker), false, "the user's commit ran a rewritten hook");

    await usersGit(repo.root, "config", "core.hooksPath", "tools/hooks");
    await Deno.mkdir(join(repo.root, "tools"));
    const make =
      `mkdir -p tools/hooks 2>/dev/null; ${payload} > tools/hooks/pre-commit 2>/dev/null || echo refused`;
    const second = await ternRuns(repo.root, repo.env, [command(make)]);
    assertStringIncludes(second.sent[1], "refused");
    assertEquals([...Deno.readDirSync(join(repo.root, "tools"))], [], "the placeholder is put away");
    await usersGit(repo.root, "commit", "--allow-empty", "-qm", "the user's second commit");
    assertEquals(await exists(marker), false, "the user's commit ran a hook made in a missing hooks folder");
  },
);

testNeeding(
  ["bwrap", "git"],
  "an include file git reads cannot be rewritten from the sandbox; one that appears is removed",
  async () => {
    await using repo = await plantedRepo({ "team.gitconfig": "[user]\n\tname = team\n", "a.txt": "a\n" });
    const marker = join(repo.home, "..", "include-ran");
    await usersGit(repo.root, "config", "--add", "include.path", "../team.gitconfig");
    await usersGit(repo.root, "config", "--add", "include.path", "../missing.gitconfig");
    const evil = `[core]\\n\\tfsmonitor = touch ${marker}; false\\n`;
    const attack =
      `printf '${evil}' > team.gitconfig 2>/dev/null || echo refused; printf '${evil}' > missing.gitconfig`;
    const { run, sent } = await ternRuns(repo.root, repo.env, [command(attack)]);
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(sent[1], "refused");
    assertStringIncludes(sent[1], "removed missing.gitconfig (created)");
    await usersGit(repo.root, "status");
    assertEquals(await exists(marker), false, "the user's git status ran an included fsmonitor");
  },
);

/** A model that starts `attack` in the background, reads it once, then waits until `held` (tern is killed). */
function backgroundThenWait(attack: string, held: Promise<void>, asked: { value: boolean }) {
  return startFakeModel(async (_body, index) => {
    if (index === 0) return command(attack, true);
    if (index === 1) {
      return { toolCalls: [{ name: "command_output", arguments: '{"id":"bg1","wait_ms":30000}' }] };
    }
    asked.value = true;
    await held;
    return { text: "late" };
  });
}

testNeeding(
  ["bwrap", "git"],
  "a background command's .git/commondir is removed as it appears; after a kill -9 the next start leaves no placeholder",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    const marker = join(repo.home, "..", "commondir-ran");
    const before = [...Deno.readDirSync(repo.root)].map((entry) => entry.name);
    const attack = [
      "mkdir evil && cp -r .git/objects .git/refs evil/",
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = touch ${marker}; false\\n' > evil/config`,
      "echo ../evil > .git/commondir && echo planted && exec sleep 600",
    ].join(" && ");
    const asked = { value: false };
    let release = () => {};
    await using model = await backgroundThenWait(attack, new Promise((resolve) => release = resolve), asked);
    const child = await spawnTern({
      cwd: repo.root,
      args: ["-p", "go"],
      env: { ...repo.env, ...modelEnv(model.url) },
    });
    try {
      assert(await eventually(() => Promise.resolve(asked.value)), "the background command started");
      assertStringIncludes(lastSent(model.requests[2]), "planted");
      const commondir = join(repo.root, ".git/commondir");
      assert(await eventually(async () => !await exists(commondir), 10_000), "commondir stayed while it ran");
      await usersGit(repo.root, "status");
      assertEquals(
        await exists(marker),
        false,
        "the user's git status, while it ran, ran the planted fsmonitor",
      );
    } finally {
      child.kill("SIGKILL");
      await finished(child);
      release();
    }
    await using next = await startFakeModel([{ text: "Hi." }]);
    const run = await runTern({
      cwd: repo.root,
      args: ["-p", "hi"],
      env: { ...repo.env, ...modelEnv(next.url) },
    });
    assertEquals(run.code, 0, run.stderr);
    const after = [...Deno.readDirSync(repo.root)].map((entry) => entry.name).sort();
    assertEquals(after, [...before, ".tern", "evil"].sort(), "a placeholder was left after the next start");
    await usersGit(repo.root, "status");
    assertEquals(await exists(marker), false, "the user's git status ran the planted common dir's fsmonitor");
  },
);

testNeeding(
  ["bwrap", "git"],
  "a background command that stages a nested repository with an fsmonitor has it tamed as it stages it",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    const marker = join(repo.home, "..", "bg-fsmonitor-ran");
    const m = "-c user.name=m -c user.email=m@m";
    const attack = [
      `git init -q sm && git -C sm ${m} commit -q --allow-empty -m s`,
      `git -C sm config core.fsmonitor 'touch ${marker}; false'`,
      "git add sm 2>/dev/null && echo staged && exec sleep 600",
    ].join(" && ");
    await using model = await startFakeModel([
      command(attack, true),
      { toolCalls: [{ name: "command_output", arguments: '{"id":"bg1","wait_ms":30000}' }] },
      command("sleep 1; git -C sm config core.fsmonitor || echo gone"),
      { toolCalls: [{ name: "command_kill", arguments: '{"id":"bg1"}' }] },
      { text: "Done." },
    ]);
    const env = { ...repo.env, ...modelEnv(model.url) };
    const run = await runTern({ cwd: repo.root, args: ["-p", "go"], env });
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(lastSent(model.requests[2]), "staged");
    assertStringIncludes(lastSent(model.requests[3]), "gone", "tamed while the background command still ran");
    assertStringIncludes(lastSent(model.requests[4]), "cleaned sm/.git/config (removed core.fsmonitor)");
    await usersGit(repo.root, "status");
    assertEquals(await exists(marker), false, "the user's git status ran the nested repository's fsmonitor");
  },
);
