/** The REPL on a real terminal: driven under tmux, read off the screen as a person would see it. */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";

async function tmux(...args: string[]): Promise<{ ok: boolean; text: string }> {
  const output = await new Deno.Command("tmux", { args, stdout: "piped", stderr: "piped" }).output();
  return { ok: output.success, text: new TextDecoder().decode(output.stdout) };
}

/** Polls the screen until `text` shows up (or the session is gone); returns the last screen. */
async function waitForScreen(session: string, text: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let screen = "";
  while (Date.now() < deadline) {
    const capture = await tmux("capture-pane", "-p", "-t", session);
    if (!capture.ok) return screen;
    screen = capture.text;
    if (screen.includes(text)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${screen}`);
}

async function waitForExit(session: string, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await tmux("has-session", "-t", session)).ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

Deno.test("the REPL on a terminal asks before an edit, streams the answer, and Ctrl-C twice exits", async () => {
  await using project = await tempProject({ "hello.txt": "Hello World\n" });
  await using model = await startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }] },
    {
      toolCalls: [{
        name: "edit_file",
        arguments: '{"path":"hello.txt","old_text":"World","new_text":"Agent"}',
      }],
    },
    { reasoning: "The edit worked.", text: "Greeting changed." },
  ]);
  const session = `tern-test-${Deno.pid}-${Date.now()}`;
  const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
  const started = await tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "120",
    "-y",
    "40",
    `cd ${project.path} && env ${env} ${await ternCommandLine()}`,
  );
  assert(started.ok, "tmux started");
  try {
    await waitForScreen(session, "›");
    await tmux("send-keys", "-t", session, "change the greeting", "Enter");
    const question = await waitForScreen(session, "Allow edit_file on hello.txt?");
    assertStringIncludes(question, "⏺ edit_file hello.txt");
    await tmux("send-keys", "-t", session, "y", "Enter");
    const answered = await waitForScreen(session, "Greeting changed.");
    assertStringIncludes(answered, "⎿ ok Edited hello.txt");
    assertStringIncludes(answered, "The edit worked.");
    assertEquals(await Deno.readTextFile(`${project.path}/hello.txt`), "Hello Agent\n");
    await waitForScreen(session, "task total:");
    await tmux("send-keys", "-t", session, "C-c");
    await waitForScreen(session, "press Ctrl-C again to exit");
    await tmux("send-keys", "-t", session, "C-c");
    assert(await waitForExit(session), "tern exits on the second Ctrl-C");
  } finally {
    await tmux("kill-session", "-t", session);
  }
});
