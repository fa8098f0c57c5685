/**
 * Many tern processes in one project, end to end: five started at once on one clone, each with a sandboxed
 * background command and foreground commands that keep trying to write protected names (creating their
 * folders first, as an attacker would once a placeholder moved away), then each killed outright at a random
 * moment. No write ever succeeds, and after the next start no placeholder is left in the project.
 */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { join } from "node:path";
import { finished, runTern, spawnTern } from "./support/cli.ts";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { git, plantedRepo } from "./support/planted_repo.ts";
import { eventually } from "./support/processes.ts";
import { testNeeding } from "./support/requires.ts";

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

/** Names that are missing in the project, so every sandbox covers them with a placeholder. */
const TARGETS = [
  ".env",
  "AGENTS.md",
  "Jenkinsfile",
  ".mcp.json",
  ".git/hooks/pre-commit",
  ".github/workflows/x.yml",
];

/** One round of attempts, appending a line per write that got through to `log`. */
function attempts(log: string): string {
  const tries = TARGETS.map((name) =>
    `mkdir -p $(dirname ${name}) 2>/dev/null; (echo x > ${name}) 2>/dev/null && echo "WROTE ${name}" >> ${log}`
  );
  return `${tries.join("; ")}; true`;
}

const command = (text: string, background = false): ScriptedTurn => ({
  toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command: text, background }) }],
});

/** A model that starts a background attacker, then runs foreground attacks until tern is gone. */
function attacker(tag: number): Promise<FakeModel> {
  const loop = `while :; do ${attempts(`log-bg-${tag}.txt`)}; sleep 0.02; done`;
  return Promise.resolve(startFakeModel((_body, index) => {
    if (index === 0) return command(loop, true);
    return command(`: round ${index}; ${attempts(`log-fg-${tag}.txt`)}`);
  }));
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
}

testNeeding(
  ["bwrap", "git"],
  "five terns at once on one project, killed at random: no protected name written, no placeholder left",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    // Without hooks, `.git/hooks` is a placeholder too: the one a command must never get to write in.
    await Deno.remove(join(repo.root, ".git/hooks"), { recursive: true });
    const before = { top: names(repo.root), git: names(join(repo.root, ".git")) };
    const models = await Promise.all([0, 1, 2, 3, 4].map(attacker));
    try {
      const children = await Promise.all(
        models.map((model) =>
          spawnTern({ cwd: repo.root, args: ["-p", "go"], env: { ...repo.env, ...modelEnv(model.url) } })
        ),
      );
      await Promise.all(children.map(async (child, i) => {
        // Killed once its background command and a foreground one ran, at a random moment after that.
        const started = await eventually(() => Promise.resolve(models[i].requests.length >= 3));
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
        try {
          child.kill("SIGKILL");
        } catch {
          // Ended by itself first (its runaway guard): its clean-up ran.
        }
        await finished(child);
        assert(started, `tern ${i} never ran its commands`);
      }));
    } finally {
      await Promise.all(models.map((model) => model.close()));
    }
    await using next = await startFakeModel([{ text: "Hi." }]);
    const run = await runTern({
      cwd: repo.root,
      args: ["-p", "hi"],
      env: { ...repo.env, ...modelEnv(next.url) },
    });
    assertEquals(run.code, 0, run.stderr);
    const logs = names(repo.root).filter((name) => name.startsWith("log-"));
    const wrote = logs.flatMap((log) => Deno.readTextFileSync(join(repo.root, log)).trim().split("\n"))
      .filter((line) => line !== "");
    assertEquals(wrote, [], "a protected name was writable from a sandbox");
    const top = names(repo.root).filter((name) => !name.startsWith("log-"));
    assertEquals(top, [...new Set([...before.top, ".tern"])].sort(), "a placeholder was left in the project");
    assertEquals(
      names(join(repo.root, ".git")).filter((name) => before.git.includes(name) || name === "hooks"),
      before.git,
    );
  },
);

testNeeding(
  ["bwrap"],
  "a sandboxed command cannot see or hold the claims lock that other terns wait on",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    const probe =
      "ls -A .tern/local/sandbox | wc -l; exec 9<.tern/local/sandbox/lock 2>/dev/null && echo OPENED";
    await using model = await startFakeModel([command(probe), { text: "Done." }]);
    const run = await runTern({
      cwd: repo.root,
      args: ["-p", "go"],
      env: { ...repo.env, ...modelEnv(model.url) },
    });
    assertEquals(run.code, 0, run.stderr);
    const sent = (model.requests[1].messages as { content: string }[]).at(-1)!.content;
    assertEquals(sent.includes("OPENED"), false, sent);
    assertStringIncludes(sent, ">0\n", "the claims folder is empty inside the sandbox");
    assert(
      names(join(repo.root, ".tern/local/sandbox")).includes("lock"),
      "the lock is there, outside the sandbox",
    );
  },
);

testNeeding(
  ["bwrap", "git"],
  "session A's clean-up leaves the .git/hooks placeholder session B's background command has mounted",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n" });
    await Deno.remove(join(repo.root, ".git/hooks"), { recursive: true });
    const marker = join(repo.home, "..", "hook-ran");
    const hook = `printf '#!/bin/sh\\ntouch ${marker}\\n'`;
    // B's background command: tries to plant the hook, counting its rounds, until told to stop.
    const plant = `n=0; while [ ! -e stop ]; do mkdir -p .git/hooks 2>/dev/null; ` +
      `(${hook} > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit) 2>/dev/null && echo WROTE >> log.txt; ` +
      `n=$((n+1)); echo $n > rounds.txt; sleep 0.05; done; echo stopped`;
    await using modelA = await startFakeModel([command("while [ ! -e go ]; do sleep 0.05; done"), {
      text: "A done.",
    }]);
    await using modelB = await startFakeModel([
      command(plant, true),
      { toolCalls: [{ name: "command_output", arguments: '{"id":"bg1","wait_ms":60000}' }] },
      { text: "B done." },
    ]);
    const rounds = async () =>
      Number(await Deno.readTextFile(join(repo.root, "rounds.txt")).catch(() => "0"));
    const env = (model: FakeModel) => ({ ...repo.env, ...modelEnv(model.url) });
    const a = await spawnTern({ cwd: repo.root, args: ["-p", "go"], env: env(modelA) });
    assert(
      await eventually(async () =>
        (await Deno.lstat(join(repo.root, ".git/hooks")).catch(() => null)) !== null
      ),
    );
    const b = await spawnTern({ cwd: repo.root, args: ["-p", "go"], env: env(modelB) });
    assert(await eventually(async () => await rounds() > 2), "B's background command runs");
    await Deno.writeTextFile(join(repo.root, "go"), "");
    assertEquals((await finished(a)).code, 0);
    const after = await rounds();
    assert(await eventually(async () => await rounds() > after + 5), "B's command went on after A ended");
    await Deno.writeTextFile(join(repo.root, "stop"), "");
    assertEquals((await finished(b)).code, 0);
    assertEquals(await Deno.readTextFile(join(repo.root, "log.txt")).catch(() => ""), "", "B wrote a hook");
    assertEquals(
      names(repo.root),
      [".git", ".tern", "a.txt", "go", "rounds.txt", "stop"],
      "a placeholder was left",
    );
    assertEquals(names(join(repo.root, ".git")).includes("hooks"), false);
    await git(repo.root, "commit", "--allow-empty", "-qm", "the user's commit");
    assertEquals(
      await Deno.lstat(marker).then(() => true, () => false),
      false,
      "the user's commit ran B's hook",
    );
  },
);
