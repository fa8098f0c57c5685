import { assert, assertEquals } from "../../support/assert.ts";
import { HOOK_STREAM_CAP_BYTES, runHookCommand } from "../../../src/tools/shell/hook_command.ts";
import { tempProject } from "../../support/temp_project.ts";
import { whyMissing } from "../../support/requires.ts";

const EIGHT_MB = 8 * 1024 * 1024;

async function hook(root: string, command: string, timeoutMs = 30_000) {
  const signal = new AbortController().signal;
  return await runHookCommand(command, { root, input: "{}", sandboxed: false, timeoutMs, signal });
}

Deno.test("runHookCommand() keeps a flooding hook's exit code, and the head of each stream within the cap", async () => {
  await using project = await tempProject();
  const onStderr = await hook(
    project.root,
    `echo reason >&2; head -c ${EIGHT_MB} /dev/zero | tr '\\0' x >&2; exit 2`,
  );
  assertEquals([onStderr.code, onStderr.stopped], [2, null]);
  assert(onStderr.stderr.startsWith("reason\nxxx"), onStderr.stderr.slice(0, 40));
  assert(onStderr.stderr.length <= HOOK_STREAM_CAP_BYTES, `${onStderr.stderr.length} characters kept`);
  const onStdout = await hook(project.root, `yes | head -c ${EIGHT_MB}; echo why >&2; exit 2`);
  assertEquals([onStdout.code, onStdout.stopped, onStdout.stderr], [2, null, "why\n"]);
  assert(onStdout.stdout.length <= HOOK_STREAM_CAP_BYTES, `${onStdout.stdout.length} characters kept`);
});

Deno.test("runHookCommand() does not wait for a process the hook left holding its output", async () => {
  await using project = await tempProject();
  const result = await hook(project.root, "sleep 30 & echo said; echo why >&2; exit 2", 20_000);
  assertEquals([result.code, result.stopped, result.stdout, result.stderr], [2, null, "said\n", "why\n"]);
});

Deno.test("runHookCommand() holds no more than the cap of a flood in its temporary files", async () => {
  await using project = await tempProject();
  const tmp = await Deno.makeTempDir({ dir: project.outside });
  const before = Deno.env.get("TMPDIR");
  Deno.env.set("TMPDIR", tmp);
  try {
    // Once 8 MB went to stderr, the hook measures the files the capture keeps (in TMPDIR, its temp dir).
    const result = await hook(project.root, `head -c ${EIGHT_MB} /dev/zero >&2; du -sb "$TMPDIR" | cut -f1`);
    assertEquals(result.code, 0);
    const held = Number(result.stdout.trim());
    assert(held > 0 && held < 2 * HOOK_STREAM_CAP_BYTES + 16_384, `${held} bytes held in ${tmp}`);
  } finally {
    if (before === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", before);
  }
  assertEquals([...Deno.readDirSync(tmp)], [], "the capture's temporary folder is removed");
});

Deno.test({
  name: "runHookCommand() caps a sandboxed hook's flood the same way (the sandbox's /tmp is memory)" +
    (whyMissing("bwrap") ? ` (skipped: ${whyMissing("bwrap")})` : ""),
  ignore: whyMissing("bwrap") !== null,
  fn: async () => {
    await using project = await tempProject();
    const command = `head -c ${EIGHT_MB} /dev/zero >&2; du -sb /tmp | cut -f1; exit 2`;
    const signal = new AbortController().signal;
    const result = await runHookCommand(command, {
      root: project.root,
      input: "{}",
      sandboxed: true,
      timeoutMs: 30_000,
      signal,
    });
    assertEquals([result.code, result.stopped], [2, null]);
    assert(
      Number(result.stdout.trim()) < 2 * HOOK_STREAM_CAP_BYTES + 16_384,
      `${result.stdout.trim()} bytes in /tmp`,
    );
  },
});
