/**
 * The sandbox's walls against a hostile command: root inside is powerless, tern's key is invisible in any
 * encoding, a fork bomb is contained, and tern's helpers ignore a hostile environment (LD_PRELOAD, BASH_ENV).
 * Every destructive attempt targets the sandbox's own mounts or a temp directory, never the real root.
 */
import { assert, assertMatch, assertNotMatch, assertStrictEquals } from "../../support/assert.ts";
import { join } from "node:path";
import { runInGroup } from "../../../src/tools/shell/process_group.ts";
import { detectBubblewrap } from "../../../src/tools/shell/sandbox.ts";
import { confinedArgv } from "../../../src/tools/shell/confined_argv.ts";
import { call, executeCommandTool, tempProject, type TestContext, testContext } from "../_helpers.ts";
import { runUnderTernFlags } from "./_sandbox_driver.ts";
import { testNeeding, whyMissing } from "../../support/requires.ts";
import { closeFileWall, openFileWall } from "../../../src/fs/file_wall.ts";

const notRoot = Deno.uid() !== 0;

/** Mode required: were bubblewrap ever missing, these commands are refused instead of run unconfined. */
function sandboxed(root: string): TestContext {
  return testContext(root, { shell: { sandbox: "required", secrets: [] } });
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** Runs `script` confined like execute_command does, but with a chosen process limit; returns its output. */
async function confined(root: string, script: string, maxProcesses: number, timeoutMs: number) {
  const { userNamespace } = await detectBubblewrap();
  let text = "";
  const finished = await runInGroup(
    await confinedArgv({ root, network: false, userNamespace, maxProcesses }, ["bash", "-c", script]),
    {
      sandboxed: true,
      cwd: root,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/nonexistent" },
      signal: new AbortController().signal,
      timeoutMs,
      sink: { push: (chunk) => text += chunk, end: () => {} },
    },
  );
  return { ...finished, text };
}

const noBwrap = whyMissing("bwrap");
Deno.test({
  name:
    "sandbox as root (needs root: CI runs as root): remount, umount, mknod, mount and outside writes all fail" +
    (notRoot ? " (skipped: not root)" : noBwrap ? ` (skipped: ${noBwrap})` : ""),
  ignore: notRoot || noBwrap !== null,
  fn: async () => {
    await using p = await tempProject();
    // Each attempt prints a marker only if it succeeds. `remount,bind` changes only the sandbox's own mount.
    const command = [
      "mount -o remount,bind,rw / 2>/dev/null && echo REMOUNTED",
      "umount -l /proc 2>/dev/null && echo UNMOUNTED",
      "mknod ./null-device c 1 3 2>/dev/null && echo MKNOD",
      "mount -t tmpfs none ../outside 2>/dev/null && echo MOUNTED",
      "echo x > ../outside/planted.txt 2>/dev/null && echo WROTE-OUTSIDE",
      "id -u",
      "grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status",
    ].join("\n");
    const result = await call(executeCommandTool, { command }, sandboxed(p.root));
    assertNotMatch(result.content, /REMOUNTED|UNMOUNTED|MKNOD|MOUNTED|WROTE-OUTSIDE/);
    assertMatch(result.content, /^0$/m, "still uid 0 inside");
    assertMatch(result.content, /CapEff:\s+0+$/m);
    assertMatch(result.content, /CapPrm:\s+0+$/m);
    assertMatch(result.content, /CapBnd:\s+0+$/m, "a user namespace empties the bounding set");
    assert(!await exists(join(p.root, "null-device")));
    assert(!await exists(join(p.outside, "planted.txt")));
  },
});

/** The key's base64 at each of the three alignments (minus the edge characters) and its hex. */
function encodings(key: string): string[] {
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const b64 = btoa("x".repeat(shift) + key);
    forms.push(b64.slice(Math.ceil(shift * 4 / 3) + 1, -4));
  }
  forms.push([...new TextEncoder().encode(key)].map((byte) => byte.toString(16).padStart(2, "0")).join(""));
  return forms;
}

/** tern's own environment, read through /proc, base64-encoded. Only reads: the control runs it unconfined. */
const TERN_ENVIRON = "cat /proc/{TERN_PID}/environ 2>/dev/null | base64 -w0; echo";

/**
 * Confined only (mode required): every process's environment in the sandbox in base64 and hex, then an
 * attempt to unmount the sandbox's private /proc to reach tern's, and tern's again.
 */
const LEAK_SCRIPT = [
  TERN_ENVIRON,
  "env | base64 -w0; echo",
  "cat /proc/*/environ 2>/dev/null | base64 -w0; echo",
  "cat /proc/*/environ 2>/dev/null | od -An -tx1 | tr -d ' \\n'; echo",
  "ps -eww e 2>/dev/null | base64 -w0; echo",
  "umount -l /proc 2>/dev/null && echo UNMOUNTED",
  TERN_ENVIRON,
  "echo CAN-SEE-ENV",
].join("\n");

testNeeding(
  ["bwrap"],
  "sandbox: tern's key is not visible to a command in any encoding (env, /proc/*/environ, base64, hex)",
  async () => {
    await using p = await tempProject();
    const key = `sk-walls-${crypto.randomUUID()}`;
    const env = { DEEPSEEK_API_KEY: key, TERN_API_KEY: key };
    const [control] = await runUnderTernFlags(p.root, [["execute_command", { command: TERN_ENVIRON }]], {
      env,
      sandbox: "off",
    });
    // The control shows the check can see a leak: unconfined, tern's own /proc entry carries the key.
    assert(encodings(key).some((form) => control.content.includes(form)), "control: unconfined leaks");
    const [result] = await runUnderTernFlags(p.root, [["execute_command", { command: LEAK_SCRIPT }]], {
      env,
      sandbox: "required",
    });
    assertStrictEquals(result.isError, false, result.content);
    // Long output is cut in the result and saved whole: check the whole of it.
    const spill = /saved in full to (\S+);/.exec(result.content)?.[1];
    const whole = spill ? await Deno.readTextFile(join(p.root, spill)) : result.content;
    assertMatch(whole, /CAN-SEE-ENV/, "the command ran and its output is all there");
    for (const form of [key, ...encodings(key)]) assert(!whole.includes(form), `leaked as ${form}`);
    assertNotMatch(whole, /UNMOUNTED/);
  },
);

testNeeding(["bwrap"], "sandbox: the process limit holds (xargs starts 40 sleeps, limit 32)", async () => {
  await using p = await tempProject();
  // xargs, not a bash loop: bash retries a failed fork for 15 s before giving up.
  const script = "seq 40 | xargs -P 40 -n 1 sleep 30 2>/dev/null &\n" +
    'end=$((SECONDS + 2)); while [ "$SECONDS" -lt "$end" ]; do :; done\n' +
    'n=0; for pid in /proc/[0-9]*; do n=$((n+1)); done; echo "processes: $n"';
  const { text } = await confined(p.root, script, 32, 20_000);
  const count = Number(/processes: (\d+)/.exec(text)?.[1]);
  assert(count > 5 && count <= 32, text);
});

Deno.test({
  name: "as root, the file helper makes the pids cgroup without a process, the limit holds, and the cgroup " +
    "goes with the helper" + (notRoot ? " (skipped: not root)" : noBwrap ? ` (skipped: ${noBwrap})` : ""),
  ignore: notRoot || noBwrap !== null,
  fn: async () => {
    await using p = await tempProject();
    openFileWall(() => {});
    let cgroup: string | undefined;
    try {
      // A limit no other test uses: the cgroup is made now, by the helper.
      const script = "grep -o 'tern-sandbox-[^ ]*' /proc/self/cgroup | head -1\n" +
        "seq 40 | xargs -P 40 -n 1 sleep 30 2>/dev/null &\n" +
        'end=$((SECONDS + 2)); while [ "$SECONDS" -lt "$end" ]; do :; done\n' +
        'n=0; for pid in /proc/[0-9]*; do n=$((n+1)); done; echo "processes: $n"';
      const { text } = await confined(p.root, script, 31, 20_000);
      const name = /tern-sandbox-31-\d+/.exec(text)?.[0];
      assertStrictEquals(name, `tern-sandbox-31-${Deno.pid}`, text);
      const count = Number(/processes: (\d+)/.exec(text)?.[1]);
      assert(count > 5 && count <= 31, text);
      const line = (await Deno.readTextFile("/proc/self/cgroup")).split("\n").find((l) =>
        /pids|^0::/.test(l)
      )!;
      const base = line.includes("pids")
        ? `/sys/fs/cgroup/pids${line.split(":")[2]}`
        : `/sys/fs/cgroup${line.slice(3)}`;
      cgroup = join(base, name!);
      assert(await exists(cgroup), `${cgroup} is there while tern runs`);
    } finally {
      await closeFileWall();
    }
    // The helper removes it as it ends (its processes are gone: the sandbox ended with the command).
    assertStrictEquals(await exists(cgroup!), false, `${cgroup} outlived the helper`);
  },
});

testNeeding(
  ["bwrap"],
  "sandbox: a fork bomb in a temp project is contained by the process limit and ends at the timeout",
  async () => {
    await using p = await tempProject();
    // The bomb runs only when a limit is in force (so a broken limit fails this test instead of the machine).
    const script = `limited=
if [ "$(id -u)" = 0 ]; then grep -q tern-sandbox- /proc/self/cgroup && limited=1
else [ "$(ulimit -u)" = 48 ] && limited=1; fi
[ -n "$limited" ] || { echo NO-LIMIT; exit 1; }
f(){ f|f& }; f 2>/dev/null
end=$((SECONDS + 2)); while [ "$SECONDS" -lt "$end" ]; do :; done
n=0; for pid in /proc/[0-9]*; do n=$((n+1)); done; echo "processes: $n"`;
    const { text, stopped } = await confined(p.root, script, 48, 8_000);
    assertNotMatch(text, /NO-LIMIT/);
    console.log(`fork bomb: ${text.match(/processes: \d+/)?.[0] ?? "no count"}, stopped: ${stopped}`);
    const count = Number(/processes: (\d+)/.exec(text)?.[1]);
    assert(stopped === "timeout" || (count > 0 && count <= 48), `${stopped} ${text.slice(-300)}`);
    // The machine is fine: tern can still start processes.
    assert((await new Deno.Command("true").output()).success);
  },
);

testNeeding(
  ["bwrap"],
  "helpers run clean: LD_PRELOAD and a project BASH_ENV neither disable the sandbox nor run anything",
  async () => {
    await using p = await tempProject();
    const marker = join(p.outside, "MARKER");
    await Deno.writeTextFile(
      join(p.root, "evil.sh"),
      `echo ran >> ${marker}; echo ran >> ${p.root}/MARKER\n`,
    );
    const [timedOut, inside] = await runUnderTernFlags(p.root, [
      ["execute_command", { command: "sleep 5", timeout_ms: 300 }],
      ["execute_command", {
        command: 'echo "pid $$"; touch ../outside/planted 2>/dev/null || echo confined',
      }],
    ], { env: { LD_PRELOAD: "/nonexistent.so", BASH_ENV: join(p.root, "evil.sh") } });
    // The timeout ran the kill helper: an error result, not a crash.
    assertStrictEquals(timedOut.isError, true);
    assertMatch(timedOut.content, /timed out after 0\.3 s/);
    // Still sandboxed: the command's own PID namespace, and no write outside.
    assertMatch(inside.content, /^pid [1-3]\nconfined$/);
    assert(!await exists(marker), "BASH_ENV ran outside the sandbox");
    assert(!await exists(join(p.root, "MARKER")), "BASH_ENV ran");
    assert(!await exists(join(p.outside, "planted")));
  },
);
