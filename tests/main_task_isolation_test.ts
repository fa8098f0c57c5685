/**
 * The task tool's `isolation: "worktree"` through the real CLI: each writing sub-agent works in a git
 * worktree of its own, opened through the door (the same walls), in parallel; the main tree is unchanged,
 * and each result names the branch its work is committed on, with its diff stat.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { git, plantedRepo } from "./support/planted_repo.ts";
import { barrier, senderOf } from "./support/sub_agent_script.ts";
import { testNeeding } from "./support/requires.ts";
import { tempProject } from "./support/temp_project.ts";

const WRITER = "---\nname: writer\ndescription: Writes files\ntools: write_file, read_file\n---\nWrite.\n";
const modelEnv = (url: string) => ({ TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" });

function task(id: string, prompt: string): ScriptedTurn["toolCalls"] & object {
  const args = { description: `job ${id}`, prompt, agent: "writer", isolation: "worktree" };
  return [{ id, name: "task", arguments: JSON.stringify(args) }];
}

const TASKS: ScriptedTurn = {
  toolCalls: [
    ...task("call_a", "Job A: write one.txt"),
    ...task("call_b", "Job B: write two.txt"),
    ...task("call_c", "Job C: nothing"),
  ],
};

/** A child's first turn: its file, and a write to a protected path (refused: nobody to ask). */
function childTurn(job: string): ScriptedTurn {
  if (job.startsWith("Job C")) return { text: "nothing to do." };
  const file = job.startsWith("Job A") ? "one.txt" : "two.txt";
  return {
    toolCalls: [
      { name: "write_file", arguments: JSON.stringify({ path: file, content: `${file}\n` }) },
      { name: "write_file", arguments: JSON.stringify({ path: ".tern/settings.json", content: "{}" }) },
      { name: "write_file", arguments: JSON.stringify({ path: "../../../../a.txt", content: "pwned\n" }) },
    ],
  };
}

testNeeding(
  ["git"],
  "task isolation: writing sub-agents in worktrees of their own, in parallel; branch and diff come back",
  async () => {
    await using repo = await plantedRepo({ "a.txt": "a\n", ".tern/agents/writer.md": WRITER });
    const together = barrier(3);
    await using model = await startFakeModel(async (body) => {
      const sender = senderOf(body);
      if (!sender.child) return sender.turn === 0 ? TASKS : { text: "Merged nothing yet." };
      if (sender.turn === 0) {
        await together.arrive(); // all three children in flight at once, each in its own worktree
        return childTurn(sender.job);
      }
      return { text: "wrote it." };
    });
    const run = await runTern({
      cwd: repo.root,
      args: ["-p", "split the work", "--approve", "edits", "--trust-project"],
      env: { ...repo.env, ...modelEnv(model.url) },
    });
    assertEquals([run.code, run.stdout], [0, "Merged nothing yet.\n"], run.stderr);
    // The main tree: unchanged.
    for (const file of ["one.txt", "two.txt"]) assertEquals(await exists(join(repo.root, file)), false, file);
    assertEquals(await Deno.readTextFile(join(repo.root, "a.txt")), "a\n");
    assertEquals(await git(repo.root, "status", "--porcelain"), "");
    const last = senderOf(model.requests.at(-1)!);
    const results = last.messages.filter((message) => message.role === "tool").map((m) => String(m.content));
    assertEquals(results.length, 3);
    for (const [i, file] of ["one.txt", "two.txt"].entries()) {
      const branch = /committed on branch (tern\/task-[0-9a-f]{8})/.exec(results[i])?.[1];
      assert(branch, results[i]);
      assertStringIncludes(results[i], `${file} | 1 +`);
      assertStringIncludes(results[i], "the main tree is unchanged");
      assertEquals(await git(repo.root, "show", `${branch}:${file}`), `${file}\n`);
      // Only its own file is on its branch: not the other's, not tern's own .tern/.gitignore.
      assertEquals(await git(repo.root, "diff", "--name-only", "main", branch), `${file}\n`);
    }
    assertStringIncludes(results[2], "the sub-agent changed no file; its worktree and branch were removed");
    // The walls in each worktree: the protected write refused (nobody to ask), the escape refused.
    const childResults = model.requests.map(senderOf).filter((s) => s.child && s.turn === 1)
      .flatMap((s) => s.messages.filter((m) => m.role === "tool").map((m) => String(m.content)));
    assertEquals(
      childResults.filter((text) => text.includes(".tern/settings.json is a protected path")).length,
      2,
    );
    assertEquals(childResults.filter((text) => text.includes("is outside the project root")).length, 2);
    const listed = await runTern({ cwd: repo.root, args: ["worktrees"], env: repo.env });
    assertEquals(
      listed.stdout.match(/^task-[0-9a-f]{8} {2}tern\/task-[0-9a-f]{8} .* 0 changed files/gm)?.length,
      2,
      listed.stdout,
    );
    assertEquals((await git(repo.root, "branch", "--list", "tern/*")).trim().split("\n").length, 2);
  },
);

Deno.test("task isolation outside a git repository is not offered, and a call asking for it is refused", async () => {
  await using project = await tempProject({ ".tern/agents/writer.md": WRITER });
  await using model = await startFakeModel([{ toolCalls: task("call_a", "Job A: write one.txt") }, {
    text: "ok",
  }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "go", "--trust-project"],
    env: modelEnv(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const tools = model.requests[0].tools as {
    function: { name: string; parameters: { properties: object } };
  }[];
  const taskTool = tools.find((tool) => tool.function.name === "task")!;
  assertEquals(Object.keys(taskTool.function.parameters.properties), ["description", "prompt", "agent"]);
  const result = senderOf(model.requests[1]).messages.filter((m) => m.role === "tool").map((m) =>
    String(m.content)
  );
  assertStringIncludes(result[0], "isolation");
  assertEquals(await exists(join(project.root, ".tern/local/worktrees")), false);
});

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);
