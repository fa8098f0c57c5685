/**
 * Background processes through the tools the model calls: execute_command with `background: true`,
 * command_output and command_kill, on real processes in temp projects (unconfined here: the sandbox's own
 * tests cover bubblewrap; the CLI test runs them confined).
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../../support/assert.ts";
import { join } from "node:path";
import { createExecuteCommandTool } from "../../../src/tools/execute_command.ts";
import { createCommandOutputTool } from "../../../src/tools/command_output.ts";
import { createCommandKillTool } from "../../../src/tools/command_kill.ts";
import { BackgroundProcesses, MAX_BACKGROUND, survivorLine } from "../../../src/tools/shell/background.ts";
import { guardedPaths } from "../../../src/tools/shell/guarded_paths.ts";
import { createRegistry } from "../../../src/tools/registry.ts";
import { MAX_SPILL_CHARS } from "../../../src/tools/shell/command_output.ts";
import type { ToolResult } from "../../../src/tools/tool.ts";
import { tempProject } from "../../support/temp_project.ts";
import { eventually, processesWith, sleepMarker } from "../../support/processes.ts";

/** The three tools over one session's processes, unconfined, with `secrets` redacted. */
function tools(secrets: string[] = []) {
  const processes = new BackgroundProcesses();
  const shell = createExecuteCommandTool({ sandbox: "off", secrets, background: processes });
  const output = createCommandOutputTool(processes);
  const kill = createCommandKillTool(processes);
  return {
    processes,
    shell,
    output,
    kill,
    [Symbol.asyncDispose]: async () => void await processes.killAll(),
  };
}

async function result(promise: Promise<string | ToolResult>): Promise<ToolResult> {
  const value = await promise;
  return typeof value === "string" ? { content: value } : value;
}

Deno.test("command_output reads what a background command printed since the last read; then its exit code", async () => {
  await using project = await tempProject();
  await using t = tools();
  const ctx = project.ctx;
  const started = await result(
    t.shell.run({
      command: "echo one; until [ -e go ]; do sleep 0.05; done; echo two; exit 3",
      background: true,
    }, ctx),
  );
  assertStringIncludes(started.content, "Started in the background as bg1");
  assertEquals(started.details?.background, "bg1");
  const first = await result(t.output.run({ id: "bg1", wait_ms: 30_000 }, ctx));
  assertStringIncludes(first.content, "one");
  await Deno.writeTextFile(join(project.root, "go"), "");
  let second = await result(t.output.run({ id: "bg1", wait_ms: 30_000 }, ctx));
  // Output and the end may arrive apart: read until the process has ended.
  while (!second.content.includes("exited")) {
    const more = await result(t.output.run({ id: "bg1", wait_ms: 30_000 }, ctx));
    second = { content: second.content + more.content };
  }
  assert(!second.content.includes("one"), "only what came since the last read");
  assertStringIncludes(second.content, "two");
  assertStringIncludes(second.content, "[bg1 exited with code 3]");
  assertEquals(
    (await result(t.kill.run({ id: "bg1" }, ctx))).content,
    "bg1 exited with code 3 already; nothing to stop",
  );
});

Deno.test("command_output redacts secrets and spills a long read to a file it names", async () => {
  await using project = await tempProject();
  await using t = tools(["sk-test-0123456789"]);
  const command = "echo key=sk-test-0123456789; head -c 200000 /dev/zero | tr '\\0' x; echo; echo END";
  await t.shell.run({ command, background: true }, project.ctx);
  assert(await eventually(() => Promise.resolve(t.processes.list()[0].state === "exited")));
  const read = await result(t.output.run({ id: "bg1" }, project.ctx));
  assertStringIncludes(read.content, "key=[redacted]");
  const path = read.details!.spilledTo!;
  const note = `[200020 characters since the last read; kept in ${path}: page it with read_file]`;
  assertStringIncludes(read.content, `END\n${note}\n[bg1 exited with code 0]`);
  const spilled = await Deno.readTextFile(join(project.root, path));
  assert(spilled.startsWith("key=[redacted]\nxxx") && spilled.endsWith("END\n"));
  assert(!spilled.includes("sk-test") && spilled.length <= MAX_SPILL_CHARS);
});

Deno.test("command_kill stops the whole group; unknown ids are named; too many at once are refused", async () => {
  await using project = await tempProject();
  await using t = tools();
  const ctx = project.ctx;
  for (let i = 0; i < MAX_BACKGROUND; i++) {
    await t.shell.run({ command: "sleep 300 & sleep 300; wait", background: true }, ctx);
  }
  await assertRejects(
    () => t.shell.run({ command: "sleep 1", background: true }, ctx),
    Error,
    "kill one first",
  );
  const killed = await result(t.kill.run({ id: "bg1" }, ctx));
  assertEquals(killed.content, "bg1 was killed");
  assertEquals(t.processes.running().length, MAX_BACKGROUND - 1);
  await assertRejects(
    () => t.output.run({ id: "bg99" }, ctx),
    Error,
    'no background process "bg99" (known: bg1',
  );
});

Deno.test("command_output and command_kill are offered once the session has a background process", async () => {
  await using project = await tempProject();
  await using t = tools();
  const registry = createRegistry([t.shell, t.output, t.kill]);
  assertEquals(registry.specs().map((spec) => spec.name), ["execute_command"]);
  const params = registry.specs()[0].parameters as { properties: Record<string, unknown> };
  assert("background" in params.properties);
  await t.shell.run({ command: "true", background: true }, project.ctx);
  assertEquals(registry.specs().map((spec) => spec.name), [
    "command_kill",
    "command_output",
    "execute_command",
  ]);
  const plain = createExecuteCommandTool({ sandbox: "off" });
  assert(!("background" in (plain.parameters as { properties: object }).properties));
});

Deno.test("a placeholder a running command relies on is not swept or removed by another command's start and end", async () => {
  await using project = await tempProject();
  const long = guardedPaths(project.root, { compare: false });
  assert(long.guardMissing.dirs.includes(".env"));
  await Deno.mkdir(join(project.root, ".env")); // what bwrap leaves on the host while the sandbox runs
  const short = guardedPaths(project.root);
  assert(short.readOnly.includes(".env"), "the other command binds it read-only instead of sweeping it");
  await short.cleanUp();
  assert((await Deno.lstat(join(project.root, ".env"))).isDirectory, "still there for the long one");
  await long.cleanUp();
  await assertRejects(() => Deno.lstat(join(project.root, ".env")));
});

/** The live `sleep MARKER` processes themselves (not the shells whose command lines name them). */
async function sleeping(marker: string): Promise<string[]> {
  return (await processesWith(marker)).filter((line) => line.endsWith(`sleep ${marker}`));
}

Deno.test("command_kill and the session's end also stop what a background command moved to a new session (setsid)", async () => {
  await using project = await tempProject();
  await using t = tools();
  const ctx = project.ctx;
  const [first, second] = [sleepMarker(71), sleepMarker(72)];
  // The subshell exits at once: each `sleep` lives on in a session of its own, its parent gone.
  for (const marker of [first, second]) {
    await t.shell.run({ command: `(setsid sleep ${marker} &); exec sleep 300`, background: true }, ctx);
  }
  assert(
    await eventually(async () => (await sleeping(first)).length + (await sleeping(second)).length === 2),
  );
  const killed = await result(t.kill.run({ id: "bg1" }, ctx));
  assertEquals(killed.content, "bg1 was killed");
  assertEquals(await sleeping(first), [], "command_kill left the setsid child running");
  assertEquals(await t.processes.killAll(), [], "nothing resisted");
  assertEquals(await sleeping(second), [], "the session's end left the setsid child running");
});

Deno.test("survivorLine() names what outlived a background command, five at most", () => {
  const info = {
    id: "bg3",
    command: "x",
    state: "killed" as const,
    startedAt: 0,
    sandboxed: false,
    unread: 0,
  };
  const survivors = ["11 sleep 1", "12 sleep 2", "13 a", "14 b", "15 c", "16 d"];
  assertEquals(
    survivorLine({ ...info, survivors }),
    "bg3 left 6 process(es) running that tern could not end: 11 sleep 1, 12 sleep 2, 13 a, 14 b, 15 c, …",
  );
});
