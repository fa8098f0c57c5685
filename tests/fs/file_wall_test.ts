/**
 * The one file wall: a helper that dies is restarted once and said, a second death refuses writes in one
 * line (never a weaker way), a machine where perl cannot run refuses writes from the start, and a temp file
 * swapped for a symlink is never reported as written.
 */
import { assert, assertEquals, assertMatch, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { closeFileWall, createThroughWall, fileHelper, openFileWall } from "../../src/fs/file_wall.ts";
import { atomicWrite } from "../../src/fs/atomic_write.ts";
import { tempProject } from "../tools/_helpers.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternRunArgs } from "../support/cli.ts";
import { canHidePerl, withPerlHidden } from "../support/hide_perl.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** SIGKILLs the wall's running helper (a process this test's wall started) and waits until it is gone. */
async function killHelper(): Promise<void> {
  const helper = fileHelper();
  assert(helper, "the wall runs a helper");
  Deno.kill(helper.pid, "SIGKILL");
  // The helper notices its death at its next request: an identity request fails, marking it dead.
  await helper.identity("/", ".").catch(() => {});
  assert(!helper.alive);
}

Deno.test("the file wall restarts a killed helper once and says so; after a second death writes are refused", async () => {
  await using p = await tempProject();
  const notices: string[] = [];
  openFileWall((line) => notices.push(line));
  try {
    await atomicWrite(join(p.root, "a.txt"), encode("one\n"));
    await killHelper();
    await atomicWrite(join(p.root, "b.txt"), encode("two\n"));
    assertEquals(await Deno.readTextFile(join(p.root, "b.txt")), "two\n");
    assertEquals(notices, ["tern's file helper stopped; it was restarted (file writes go on through it)"]);
    await killHelper();
    const refusal = await assertRejects(() => atomicWrite(join(p.root, "c.txt"), encode("three\n")));
    assertMatch(String(refusal), /file writes are refused: tern's file helper stopped twice in this session/);
    assertEquals(notices.length, 2, notices.join("\n"));
    assert(!(await Deno.stat(join(p.root, "c.txt")).then(() => true, () => false)), "nothing was written");
  } finally {
    await closeFileWall();
  }
});

Deno.test("a write whose helper dies under it is reported as not completed, never as done", async () => {
  await using p = await tempProject();
  openFileWall(() => {});
  try {
    const helper = fileHelper()!;
    Deno.kill(helper.pid, "SIGKILL");
    const refusal = await assertRejects(() =>
      createThroughWall([p.root, "", "x.txt", ".x.tmp", ""], encode("x"))
    );
    assertMatch(String(refusal), /the write did not complete|file writes are refused/);
  } finally {
    await closeFileWall();
  }
});

/**
 * The racer: whenever a temp file of tern's appears in the directory, it is replaced by a symlink to a file
 * outside (the last moment before the rename). Prints "racing", then the number of swaps when stdin closes.
 */
const TEMP_SWAPPER = `
import os, sys, threading
os.chdir(sys.argv[1])
outside = sys.argv[2]
done = []
threading.Thread(target=lambda: (sys.stdin.read(), done.append(1)), daemon=True).start()
print("racing", flush=True)
swaps = 0
while not done:
    for name in os.listdir("."):
        if name.endswith(".tmp") and ".tern-" in name:
            try:
                os.symlink(outside, "link.new")
                os.rename("link.new", name)
                swaps += 1
            except OSError:
                try: os.unlink("link.new")
                except OSError: pass
print(swaps, flush=True)
`;

Deno.test("a temp file swapped for a symlink before the rename: every write reported done left our regular file", async () => {
  await using p = await tempProject();
  const outside = join(p.outside, "secret.txt");
  const before = await Deno.readTextFile(outside);
  const racer = new Deno.Command("python3", {
    args: ["-c", TEMP_SWAPPER, p.root, outside],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const lines = racer.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assertStringIncludes((await lines.read()).value ?? "", "racing");
  openFileWall(() => {});
  let done = 0, failed = 0;
  try {
    for (let i = 0; i < 300; i++) {
      const target = join(p.root, `f${i % 10}.sh`);
      const wrote = await atomicWrite(target, encode(`echo ${i}\n`), { mode: 0o640 }).then(
        () => true,
        () => false,
      );
      if (!wrote) {
        failed++;
        continue;
      }
      done++;
      const info = await Deno.lstat(target);
      // A later write may have replaced it since: what matters is it is never a link.
      assert(info.isFile && !info.isSymlink, `f${i % 10}.sh is a regular file after a write reported done`);
    }
  } finally {
    await closeFileWall();
    await racer.stdin.close();
    let rest = "";
    for (let chunk = await lines.read(); !chunk.done; chunk = await lines.read()) rest += chunk.value;
    await racer.status;
    console.log(`writes: ${done} done, ${failed} refused; temp files swapped: ${rest.trim()}`);
  }
  // The racer's own links may linger under temp names (it renames onto names it listed); no target is one.
  for await (const entry of Deno.readDir(p.root)) {
    if (/^f\d\.sh$/.test(entry.name)) assert(!entry.isSymlink, `${entry.name} is a link`);
  }
  assertEquals(await Deno.readTextFile(outside), before, "the outside file is untouched");
  assertEquals((await Deno.stat(outside)).mode! & 0o7777, 0o644, "its mode is untouched");
});

Deno.test({
  name:
    "where perl cannot run, tern -p says so at start and refuses file writes in one line (reads still work)",
  ignore: !canHidePerl(),
  fn: async () => {
    await using p = await tempProject({ "a.txt": "hello\n" });
    await using model = startFakeModel([
      { toolCalls: [{ id: "r", name: "read_file", arguments: '{"path":"a.txt"}' }] },
      { toolCalls: [{ id: "w", name: "write_file", arguments: '{"path":"b.txt","content":"x"}' }] },
      { text: "done" },
    ]);
    const argv = withPerlHidden([
      Deno.execPath(),
      ...await ternRunArgs(),
      "-p",
      "write b",
      "--approve",
      "all",
      "--sandbox",
      "off",
    ]);
    const run = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: p.root,
      clearEnv: true,
      env: {
        PATH: "/usr/bin:/bin",
        HOME: p.root,
        NO_COLOR: "1",
        TERN_BASE_URL: model.url,
        TERN_API_KEY: "k",
        TERN_MODEL: "m",
      },
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assertStringIncludes(
      stderr,
      "file writes are refused: tern's file helper (perl) cannot run on this machine",
    );
    const results = (model.requests[2].messages as { role: string; content: string }[])
      .filter((message) => message.role === "tool").map((message) => message.content);
    assertStringIncludes(results[0], "hello");
    assertStringIncludes(results[1], "file writes are refused");
    assert(!(await Deno.stat(join(p.root, "b.txt")).then(() => true, () => false)), "b.txt was not written");
  },
});
