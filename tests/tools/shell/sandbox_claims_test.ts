/**
 * Claims across tern processes (sandbox_claims.ts, sandbox_sweep.ts): a placeholder another living tern
 * relies on is neither put away nor taken for a leftover; once that tern is killed outright, the next
 * start puts it away and undoes what its command left.
 */
import { assertEquals } from "../../support/assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempProject } from "../_helpers.ts";
import { stateDir } from "../../../src/agent/state/tern_dir.ts";
import { useSandboxClaims } from "../../../src/tools/shell/sandbox_claims.ts";
import { guardedPaths } from "../../../src/tools/shell/guarded_paths.ts";
import { sweepSandboxLeftovers } from "../../../src/tools/shell/sandbox_sweep.ts";

/** What each started holder said so far, and how to read more of it. */
const said = new Map<number, { text: string; reader: ReadableStreamDefaultReader<string> }>();

/** Reads the holder's output until it has said `word` on a line of its own. */
async function untilSaid(child: Deno.ChildProcess, word: string): Promise<void> {
  const out = said.get(child.pid)!;
  while (!out.text.split("\n").includes(word)) {
    const { value, done } = await out.reader.read();
    if (done) break;
    out.text += value;
  }
  assertEquals(out.text.split("\n").includes(word), true, out.text);
}

/** Starts the other tern (_claim_holder.ts); resolves once it printed `until` ("held", or "started"). */
async function holder(root: string, until = "held"): Promise<Deno.ChildProcess> {
  const script = fileURLToPath(new URL("./_claim_holder.ts", import.meta.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, root],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  said.set(child.pid, { text: "", reader: child.stdout.pipeThrough(new TextDecoderStream()).getReader() });
  await untilSaid(child, until);
  return child;
}

/** True once a thread of `pid` waits on a file lock (Linux: its wchan), within about 10 s. */
async function waitsOnLock(pid: number): Promise<boolean> {
  for (let i = 0; i < 400; i++) {
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      const wchan = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/wchan`);
      if (wchan.includes("lock")) return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

function isEmptyFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory && [...Deno.readDirSync(path)].length === 0;
  } catch {
    return false;
  }
}

Deno.test("another tern's placeholder is borrowed, not swept; after that tern is killed the next start puts it away", async () => {
  await using p = await tempProject({ "a.txt": "a\n" });
  await Deno.mkdir(join(p.root, ".git"));
  useSandboxClaims((dir) => stateDir(dir, "sandbox"));
  try {
    const other = await holder(p.root);
    const guarded = guardedPaths(p.root);
    assertEquals(
      guarded.readOnly.includes("AGENTS.md"),
      true,
      "bound read-only as the other tern's placeholder",
    );
    assertEquals(guarded.guardMissing.dirs.includes("AGENTS.md"), false);
    assertEquals(await guarded.cleanUp(), []);
    assertEquals(isEmptyFolder(join(p.root, "AGENTS.md")), true, "still there: the other tern relies on it");
    assertEquals(
      await sweepSandboxLeftovers(p.root),
      undefined,
      "a living tern's placeholder is not a leftover",
    );
    other.kill("SIGKILL");
    await other.status;
    await other.stdin.close().catch(() => {});
    await Deno.writeTextFile(join(p.root, ".git/commondir"), "../evil\n"); // what its command left
    const said = await sweepSandboxLeftovers(p.root);
    assertEquals(said, "a tern that ended mid-command left changes, undone: removed .git/commondir");
    assertEquals([...Deno.readDirSync(p.root)].map((entry) => entry.name).sort(), [".git", ".tern", "a.txt"]);
  } finally {
    useSandboxClaims(undefined);
  }
  assertEquals([...Deno.readDirSync(stateDir(p.root, "sandbox"))].map((entry) => entry.name), ["lock"]);
});

Deno.test({
  name: "a tern's claim file appears only locked: made under the project lock, never taken for a gone one's",
  ignore: Deno.build.os !== "linux", // the wait is seen in /proc
  fn: async () => {
    await using p = await tempProject({ "a.txt": "a\n" });
    const dir = stateDir(p.root, "sandbox");
    Deno.mkdirSync(dir, { recursive: true });
    // The project lock held here, as another tern holds it while it reads the claim files.
    const lock = Deno.openSync(join(dir, "lock"), { read: true, write: true, create: true });
    lock.lockSync(true);
    const other = await holder(p.root, "started");
    try {
      assertEquals(await waitsOnLock(other.pid), true, "the other tern waits on the project lock");
      const files = [...Deno.readDirSync(dir)].map((entry) => entry.name);
      assertEquals(files, ["lock"], "no claim file exists before it can be locked");
    } finally {
      lock.unlockSync();
      lock.close();
    }
    await untilSaid(other, "held");
    assertEquals([...Deno.readDirSync(dir)].filter((name) => name.name.endsWith(".json")).length, 1);
    await other.stdin.close();
    await other.status;
    await said.get(other.pid)!.reader.cancel();
  },
});

Deno.test("at start an empty folder at a protected file's name that no tern relies on is put away; a full one stays", async () => {
  await using p = await tempProject({ "a.txt": "a\n", "Jenkinsfile/keep.txt": "the user's\n" });
  await Deno.mkdir(join(p.root, ".env"));
  await Deno.mkdir(join(p.root, ".env.local"));
  await Deno.mkdir(join(p.root, ".vscode/tasks.json"), { recursive: true });
  useSandboxClaims((dir) => stateDir(dir, "sandbox"));
  try {
    const said = await sweepSandboxLeftovers(p.root);
    assertEquals(
      said,
      "a tern that ended mid-command left changes, undone: put away the empty folder .env, " +
        "put away the empty folder .vscode/tasks.json, put away the empty folder .env.local",
    );
    assertEquals(await Deno.readTextFile(join(p.root, "Jenkinsfile/keep.txt")), "the user's\n");
  } finally {
    useSandboxClaims(undefined);
  }
});
