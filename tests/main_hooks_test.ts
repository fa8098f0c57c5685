/** Hooks through the real CLI against the fake model server: what they block, what the model reads from them. */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { whyMissing } from "./support/requires.ts";
import { tempProject } from "./support/temp_project.ts";
import { writeOwnSettings } from "../src/agent/state/own_settings.ts";

function modelEnv(url: string): Record<string, string> {
  return { TERN_BASE_URL: url, TERN_API_KEY: "test-key", TERN_MODEL: "fake-model" };
}

/** A hook entry as settings files hold it. */
function hook(command: string, matcher = "", timeout?: number) {
  return { matcher, hooks: [{ type: "command", command, ...timeout && { timeout } }] };
}

/** Writes the user's own settings (`.tern/local/settings.json`, in the state folder tern binds to the root). */
function ownSettings(root: string, settings: unknown): Promise<void> {
  writeOwnSettings(root, settings as Record<string, unknown>); // sealed, as tern writes it
  return Promise.resolve();
}

type Sent = { role: string; content: string };
const lastMessage = (body: Record<string, unknown>) => (body.messages as Sent[]).at(-1)!;

const BLOCK_RM = `input=$(cat); case "$input" in *'"command":"rm '*) ` +
  `echo "rm is not allowed here: move files to trash/ instead" >&2; exit 2;; esac`;

Deno.test("tern -p: a PreToolUse hook blocks rm with its reason for the model; a PostToolUse hook's output reaches the model", async () => {
  await using project = await tempProject({ "keep.txt": "precious\n" });
  await ownSettings(project.root, {
    hooks: {
      PreToolUse: [hook(BLOCK_RM, "execute_command"), hook("cat >> events.jsonl; echo >> events.jsonl")],
      PostToolUse: [hook(`grep -o '"path":"[^"]*"' | sed 's/^/LINT-OK /'`, "write_file|edit_file")],
    },
  });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "execute_command", arguments: '{"command":"rm keep.txt"}' }] },
    { toolCalls: [{ name: "write_file", arguments: '{"path":"a.txt","content":"x\\n"}' }] },
    { text: "Done." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "tidy up", "--approve", "all"],
    env: modelEnv(model.url),
  });
  assertEquals([run.code, run.stdout], [0, "Done.\n"], run.stderr);
  assertEquals(await Deno.readTextFile(join(project.root, "keep.txt")), "precious\n", "rm never ran");
  const blocked = lastMessage(model.requests[1]).content;
  assertStringIncludes(
    blocked,
    "blocked by a PreToolUse hook (.tern/local/settings.json): rm is not allowed",
  );
  assertStringIncludes(blocked, "rm is not allowed here: move files to trash/ instead");
  const written = lastMessage(model.requests[2]).content;
  assertStringIncludes(written, 'LINT-OK "path":"a.txt"');
  // The blocking hook stopped the event there: the catch-all saw only the write.
  const events = (await Deno.readTextFile(join(project.root, "events.jsonl"))).trim().split("\n")
    .map((line) => JSON.parse(line));
  assertEquals(
    events.map(({ hook_event_name, tool_name, tool_input, cwd }) => ({
      hook_event_name,
      tool_name,
      tool_input,
      cwd,
    })),
    [{
      hook_event_name: "PreToolUse",
      tool_name: "write_file",
      tool_input: { path: "a.txt", content: "x\n" },
      cwd: project.root,
    }],
  );
});

Deno.test("tern -p: SessionStart and UserPromptSubmit add context; a Stop hook sends the model back to work, at most 3 times", async () => {
  await using project = await tempProject();
  await ownSettings(project.root, {
    hooks: {
      SessionStart: [hook("echo SESSION-CONTEXT", "startup")],
      UserPromptSubmit: [hook(`grep -o '"prompt":"[^"]*"'; echo PROMPT-CONTEXT`)],
      Stop: [hook("echo 'the tests are not run yet' >&2; exit 2")],
    },
  });
  await using model = await startFakeModel((_body, index) => ({ text: `Answer ${index}.` }));
  const run = await runTern({ cwd: project.root, args: ["-p", "fix it"], env: modelEnv(model.url) });
  assertEquals([run.code, run.stdout], [0, "Answer 3.\n"], run.stderr);
  assertEquals(model.requests.length, 4, "sent back 3 times, then the task ends");
  assertStringIncludes(run.stderr, "a Stop hook asked for more work 4 times in this task; tern stops here");
  const first = model.requests[0].messages as Sent[];
  assertEquals(first.slice(1).map((m) => m.role), ["user", "user"]);
  assertEquals(first[1].content, "fix it");
  assertStringIncludes(first[2].content, "SESSION-CONTEXT");
  assertStringIncludes(first[2].content, '"prompt":"fix it"\nPROMPT-CONTEXT');
  const again = lastMessage(model.requests[1]).content;
  assertStringIncludes(again, "sent you back to work: the tests are not run yet");
});

Deno.test("tern -p: a UserPromptSubmit hook that exits 2 blocks the prompt before anything is sent", async () => {
  await using project = await tempProject();
  await ownSettings(project.root, {
    hooks: { UserPromptSubmit: [hook("echo 'no deploys on Friday' >&2; exit 2")] },
  });
  await using model = await startFakeModel([{ text: "never asked" }]);
  const run = await runTern({ cwd: project.root, args: ["-p", "deploy"], env: modelEnv(model.url) });
  assertEquals(run.code, 1, run.stderr);
  assertStringIncludes(run.stderr, "the prompt was not sent: blocked by a UserPromptSubmit hook");
  assertStringIncludes(run.stderr, "no deploys on Friday");
  assertEquals(model.requests.length, 0);
});

Deno.test("tern -p: a PreToolUse hook past its time limit is killed and said, and blocks; one failing otherwise is a warning", async () => {
  await using project = await tempProject();
  await ownSettings(project.root, {
    hooks: {
      PreToolUse: [hook("echo broken >&2; exit 7", "list_dir"), hook("sleep 30; exit 0", "", 1)],
    },
  });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "list_dir", arguments: "{}" }] },
    { text: "Listed." },
  ]);
  const run = await runTern({ cwd: project.root, args: ["-p", "list"], env: modelEnv(model.url) });
  assertEquals([run.code, run.stdout], [0, "Listed.\n"], run.stderr);
  assertStringIncludes(
    run.stderr,
    "hook PreToolUse: sleep 30; exit 0 (.tern/local/settings.json) took longer than 1 s: killed, and the call " +
      "it guards is blocked",
  );
  assertStringIncludes(run.stderr, "failed with exit code 7: broken");
  assertStringIncludes(
    lastMessage(model.requests[1]).content,
    "the hook gave no verdict: it took longer than 1 s",
  );
});

Deno.test("tern -p: a PreToolUse hook that exits 2 after printing 6 MB still blocks the rm; the file survives", async () => {
  await using project = await tempProject({ "keep.txt": "precious\n" });
  const flood = `head -c ${6 * 1024 * 1024} /dev/zero | tr '\\0' x >&2; exit 2`;
  await ownSettings(project.root, { hooks: { PreToolUse: [hook(flood, "execute_command")] } });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "execute_command", arguments: '{"command":"rm keep.txt"}' }] },
    { text: "Blocked." },
  ]);
  const args = ["-p", "clean up", "--approve", "all"];
  const run = await runTern({ cwd: project.root, args, env: modelEnv(model.url) });
  assertEquals([run.code, run.stdout], [0, "Blocked.\n"], run.stderr);
  assertEquals(await Deno.readTextFile(join(project.root, "keep.txt")), "precious\n");
  assertStringIncludes(lastMessage(model.requests[1]).content, "blocked by a PreToolUse hook");
});

Deno.test({
  name: "tern -p: the project's hooks run only once it is trusted, and then inside the sandbox" +
    (whyMissing("bwrap") ? ` (skipped: ${whyMissing("bwrap")})` : ""),
  ignore: whyMissing("bwrap") !== null,
  fn: async () => {
    await using project = await tempProject({
      ".tern/settings.json": JSON.stringify({
        hooks: { SessionStart: [hook("echo ran > ran.txt; echo escaped > ../outside/pwned.txt")] },
      }),
    });
    await using model = await startFakeModel((_body, index) => ({ text: `Hi ${index}.` }));
    const untrusted = await runTern({ cwd: project.root, args: ["-p", "hi"], env: modelEnv(model.url) });
    assertEquals(untrusted.code, 0, untrusted.stderr);
    assertStringIncludes(untrusted.stderr, "ignored .tern/settings.json 1 hook");
    assertEquals(await exists(join(project.root, "ran.txt")), false, "an untrusted project's hook ran");
    const trusted = await runTern({
      cwd: project.root,
      args: ["-p", "hi", "--trust-project"],
      env: modelEnv(model.url),
    });
    assertEquals(trusted.code, 0, trusted.stderr);
    assertEquals(await Deno.readTextFile(join(project.root, "ran.txt")), "ran\n");
    assertEquals(
      await exists(join(project.outside, "pwned.txt")),
      false,
      "the hook wrote outside the project",
    );
  },
});

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
