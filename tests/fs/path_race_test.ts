/**
 * The file tools against a racing process: a helper swaps a directory of the project for a symlink to a
 * directory outside it (and a file for a FIFO) in a tight loop while read_file and write_file run 2,000
 * calls under tern's own permission flags. Zero reads of the outside secret, zero files created outside,
 * no call hangs, and no error shows an outside path or Deno's permission advice.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertRejects,
  assertStrictEquals,
} from "../support/assert.ts";
import { dirname, join } from "node:path";
import { readTextFile } from "../../src/fs/path_guard.ts";
import { openNoBlock } from "../../src/fs/opened_file.ts";
import { tempProject } from "../tools/_helpers.ts";
import { runUnderTernFlags } from "../tools/shell/_sandbox_driver.ts";
import { testNeeding } from "../support/requires.ts";

/**
 * The racer: renameat2(RENAME_EXCHANGE) in a loop, so `d` is always either the directory or a symlink to
 * outside (never missing: a write would then create `d` afresh and end the race), and `f.txt` is either a
 * regular file or a FIFO. Prints "racing", then the number of exchanges when stdin closes.
 */
const RACER = `
import ctypes, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
os.chdir(sys.argv[1])
def exchange(a, b):
    return libc.renameat2(AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), RENAME_EXCHANGE) == 0
done = []
threading.Thread(target=lambda: (sys.stdin.read(), done.append(1)), daemon=True).start()
print("racing", flush=True)
swaps = 0
while not done:
    swaps += exchange("d", "d.link") + exchange("f.txt", "f.fifo")
print(swaps, flush=True)
`;

async function listAll(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    names.push(entry.name);
    if (entry.isDirectory) {
      names.push(...(await listAll(join(dir, entry.name))).map((n) => `${entry.name}/${n}`));
    }
  }
  return names.sort();
}

/** 2,100 raced calls through the long-lived file helper (as the CLI runs them) or through one-off scripts. */
async function race(fileHelper: boolean): Promise<void> {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "d"));
  await Deno.writeTextFile(join(p.root, "d", "secret.txt"), "inside copy\n");
  await Deno.symlink(p.outside, join(p.root, "d.link"));
  await Deno.writeTextFile(join(p.root, "f.txt"), "regular\n");
  await new Deno.Command("mkfifo", { args: [join(p.root, "f.fifo")] }).output();
  const racer = new Deno.Command("python3", {
    args: ["-c", RACER, p.root],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = racer.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let swaps = 0;
  try {
    // Wait until the racer runs, so every call below races it.
    assertMatch((await lines.read()).value ?? "", /racing/);
    const calls: [string, Record<string, unknown>][] = [];
    for (let i = 0; i < 500; i++) {
      calls.push(["read_file", { path: "d/secret.txt" }]);
      calls.push(["read_file", { path: "f.txt" }]);
      calls.push(["write_file", { path: `d/w-${i}.txt`, content: "x" }]);
      calls.push(["write_file", { path: `d/n-${i}/deeper/x.txt`, content: "x" }]);
      // Off the raced path, under the same load: these must all work.
      if (i % 5 === 0) calls.push(["write_file", { path: `stable/s-${i}/x.txt`, content: "x" }]);
    }
    const results = await runUnderTernFlags(p.root, calls, { fileHelper });
    assertStrictEquals(results.length, 2100);
    const outsideText = /outside secret|evil secret/;
    const outsidePath = new RegExp(
      dirname(p.root).replaceAll("/", "\\/") + "\\/(outside|proj-evil)|--allow-",
    );
    let reads = 0, writes = 0, refused = 0, stable = 0;
    for (const [i, result] of results.entries()) {
      assertNotMatch(result.content, outsideText, `call ${i} leaked: ${result.content}`);
      assertNotMatch(result.content, outsidePath, `call ${i}: ${result.content}`);
      if (String(calls[i][1].path).startsWith("stable/")) {
        assertStrictEquals(result.isError, false, result.content);
        stable++;
      } else if (result.isError) refused++;
      else if (calls[i][0] === "read_file") reads++;
      else writes++;
    }
    console.log(`calls: ${reads} reads and ${writes} writes succeeded, ${refused} refused, 0 leaks`);
    assertStrictEquals(stable, 100);
    assert(reads + writes > 0, "some raced calls got through between swaps");
  } finally {
    await racer.stdin.close();
    let rest = "";
    for (let chunk = await lines.read(); !chunk.done; chunk = await lines.read()) rest += chunk.value;
    swaps = Number(rest.trim());
    await racer.status;
  }
  console.log(`racer: ${swaps} exchanges during the calls`);
  assert(swaps > 1000, "the racer kept racing");
  const created = await listAll(p.outside);
  assertEquals(created, ["secret.txt"], `created outside: ${created.join(", ")}`);
}

testNeeding(
  ["python3"],
  "file tools under a racing process: 2,100 calls, zero outside reads, zero outside writes, no hang",
  async () => await race(true),
);

testNeeding(
  ["python3"],
  "file tools under a racing process, with a helper per write and one-off read checks (no wall opened): zero leaks too",
  async () => await race(false),
);

Deno.test("openNoBlock() opens a FIFO without waiting for a writer; readTextFile() refuses it", async () => {
  await using p = await tempProject();
  const fifo = join(p.root, "pipe");
  await new Deno.Command("mkfifo", { args: [fifo] }).output();
  {
    await using opened = await openNoBlock(fifo);
    assertStrictEquals(opened.info.isFile, false);
    assertStrictEquals(opened.info.kind, "a FIFO (named pipe)");
  }
  assertMatch(
    String(await assertRejects(() => readTextFile(p.root, "pipe"))),
    /not a regular file \(it is a FIFO/,
  );
});
