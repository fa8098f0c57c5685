/**
 * A project set up for Claude Code, copied in unchanged (`.claude/settings.json` with hooks written for
 * Claude's tool names and $CLAUDE_PROJECT_DIR, a status line script, `.claude/commands`), through the real
 * CLI against the fake model server: nothing of it runs until the user trusts the project, then all of it does.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { whyMissing } from "./support/requires.ts";
import { tempProject } from "./support/temp_project.ts";

const env = (url: string) => ({ TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" });

const group = (matcher: string, command: string) => ({ matcher, hooks: [{ type: "command", command }] });

/** The project as a Claude Code user has it: settings, hook scripts, a status line, a command. */
const CLAUDE_PROJECT: Record<string, string> = {
  ".claude/settings.json": JSON.stringify(
    {
      permissions: { allow: ["Bash(echo:*)"], deny: ["Read(./.env)"] },
      hooks: {
        PreToolUse: [group("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no_rm.sh')],
        PostToolUse: [group("Write|Edit|MultiEdit", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh')],
        Stop: [group("", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check_done.sh')],
      },
      statusLine: { type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/statusline.sh' },
    },
    null,
    2,
  ),
  ".claude/hooks/no_rm.sh": `#!/bin/bash
input=$(cat)
case "$input" in *'"tool_name":"Bash"'*'"command":"rm '*)
  echo "rm is blocked in this repository" >&2; exit 2;; esac
exit 0
`,
  ".claude/hooks/format.sh": `#!/bin/bash
file=$(cat | grep -o '"file_path":"[^"]*"' | cut -d'"' -f4)
echo "formatted \${file#"$CLAUDE_PROJECT_DIR"/}"
`,
  ".claude/hooks/check_done.sh": `#!/bin/bash
if cat | grep -q '"stop_hook_active":false'; then
  echo '{"decision": "block", "reason": "run the tests before you stop"}'
fi
`,
  ".claude/statusline.sh": `#!/bin/bash
input=$(cat)
model=$(echo "$input" | grep -o '"display_name":"[^"]*"' | cut -d'"' -f4)
echo "CLAUDE-STATUS [$model] \${CLAUDE_PROJECT_DIR##*/}"
echo "a second line nobody sees"
`,
  ".claude/commands/greet.md": "Say hello to $ARGUMENTS in the project's style.\n",
  "keep.txt": "precious\n",
};

async function claudeProject() {
  const project = await tempProject(CLAUDE_PROJECT);
  for (const script of Object.keys(CLAUDE_PROJECT).filter((path) => path.endsWith(".sh"))) {
    await Deno.chmod(join(project.root, script), 0o755);
  }
  return project;
}

type Sent = { role: string; content: string };
const messages = (body: Record<string, unknown>) => body.messages as Sent[];

Deno.test("a Claude Code project, untrusted: its hooks, rules and status line are named and none of it runs", async () => {
  await using project = await claudeProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "execute_command", arguments: '{"command":"rm keep.txt"}' }] },
    { text: "Done." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "tidy", "--approve", "all"],
    env: env(model.url),
  });
  assertEquals([run.code, run.stdout], [0, "Done.\n"], run.stderr);
  assertStringIncludes(run.stderr, "ignored .claude/settings.json permissions (1 allow rule)");
  assertStringIncludes(run.stderr, ".claude/settings.json 4 hooks");
  assertStringIncludes(run.stderr, "(pass --trust-project, or answer the trust question the REPL asks");
  // Untrusted, the hook did not run: under --approve all the command ran (the user asked for that).
  assertEquals(await Deno.lstat(join(project.root, "keep.txt")).then(() => true, () => false), false);
});

Deno.test({
  name: "a Claude Code project copied in unchanged works once trusted: hooks, status line, commands" +
    (whyMissing("bwrap") ? ` (skipped: ${whyMissing("bwrap")})` : ""),
  ignore: whyMissing("bwrap") !== null,
  fn: async () => {
    await using project = await claudeProject();
    await using model = await startFakeModel([
      { toolCalls: [{ name: "execute_command", arguments: '{"command":"rm keep.txt"}' }] },
      { toolCalls: [{ name: "write_file", arguments: '{"path":"src/hello.ts","content":"hi\\n"}' }] },
      { text: "Done." },
      { text: "Tests pass; done." },
    ]);
    const run = await runTern({
      cwd: project.root,
      args: ["--trust-project", "--approve", "edits"],
      env: env(model.url),
      input: "/greet Bob\n/exit\n",
    });
    assertEquals(run.code, 0, run.stderr);
    // The command file became the prompt.
    assertStringIncludes(
      messages(model.requests[0]).at(-1)!.content,
      "Say hello to Bob in the project's style.",
    );
    // PreToolUse matched Bash on execute_command, found its script by $CLAUDE_PROJECT_DIR, and blocked rm.
    assertEquals(await Deno.readTextFile(join(project.root, "keep.txt")), "precious\n");
    const blocked = messages(model.requests[1]).at(-1)!.content;
    assertStringIncludes(blocked, "blocked by a PreToolUse hook (.claude/settings.json): rm is blocked");
    // PostToolUse matched Write and read Claude Code's file_path.
    assertStringIncludes(messages(model.requests[2]).at(-1)!.content, "formatted src/hello.ts");
    // The Stop hook's JSON block sent the model back once, and the human read why.
    assertEquals(model.requests.length, 4);
    assertStringIncludes(messages(model.requests[3]).at(-1)!.content, "run the tests before you stop");
    assertStringIncludes(run.stdout + run.stderr, "run the tests before you stop");
    // The status line is the script's first line, given Claude Code's JSON.
    const name = project.root.split("/").at(-1);
    assertStringIncludes(run.stdout, `CLAUDE-STATUS [fake-model] ${name}`);
    assert(!run.stdout.includes("a second line nobody sees"), run.stdout);
    assert(!run.stderr.includes("failed with exit code"), run.stderr);
  },
});
