/**
 * Diagnostics after edits through the real CLI: a language server found on PATH (the real ones `.ci/run`
 * installs) checks each edit of a headless task, the model reads the errors its edit brought and that its fix
 * removed them, stream-json carries them in a `diagnostics` field, and `/diagnostics` shows them in the REPL.
 * Without a server nothing changes.
 */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";
import { LSP_BIN, serverTest } from "./support/lsp_servers.ts";
import { streamJsonValidator } from "./support/stream_json.ts";

type Message = { role: string; content: string };

/** What the model read of the last tool result in `messages` (without its <tool_result> wrapper). */
function lastResult(messages: unknown): string | undefined {
  const content = (messages as Message[]).filter((message) => message.role === "tool").at(-1)?.content;
  return content?.replace(/^<tool_result[^>]*>/, "").replace(/<\/tool_result>$/, "");
}

const GOOD_TS = "export function twice(n: number): number {\n  return n * 2;\n}\n";
const edit = (oldText: string, newText: string) => ({
  name: "edit_file",
  arguments: JSON.stringify({ path: "src/twice.ts", old_text: oldText, new_text: newText }),
});

function env(url: string, path: string): Record<string, string> {
  // A generous bound: a cold server on a loaded machine is slow, and these tests are about what it says.
  return {
    TERN_BASE_URL: url,
    TERN_API_KEY: "k",
    TERN_MODEL: "fake-model",
    PATH: path,
    TERN_LSP_WAIT_MS: "120000",
  };
}

const read = (path: string) => ({ name: "read_file", arguments: JSON.stringify({ path }) });

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

serverTest(
  "tern -p: an edit that brings a type error gets it back, its fix says so, and stream-json carries both",
  "typescript-language-server",
  false,
  async () => {
    await using project = await tempProject({ "src/twice.ts": GOOD_TS });
    await using model = await startFakeModel([
      { toolCalls: [read("src/twice.ts")] },
      { toolCalls: [edit("return n * 2;", 'return "n" + n;')] },
      { toolCalls: [edit('return "n" + n;', "return n + n;")] },
      { text: "Done." },
    ]);
    const run = await runTern({
      cwd: project.root,
      args: ["-p", "change twice", "--approve", "edits", "--output", "stream-json"],
      env: env(model.url, `${LSP_BIN}:${PATH}`),
    });
    assertEquals(run.code, 0, run.stderr);
    const results = model.requests.slice(2).map((request) => lastResult(request.messages));
    assertEquals(results[0]?.split("\n"), [
      "Edited src/twice.ts: replaced 1 occurrence (+1 −1 lines)",
      "Diagnostics (typescript): 1 new error:",
      "  src/twice.ts:2:3: Type 'string' is not assignable to type 'number'. [typescript 2322]",
    ]);
    assertEquals(results[1]?.split("\n")[1], "Diagnostics (typescript): no new problems; 1 error fixed.");
    const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const valid = await streamJsonValidator();
    for (const event of events) assertEquals(valid(event), [], JSON.stringify(event));
    const fields = events.filter((event) => event.type === "tool_result").slice(1).map((event) =>
      event.diagnostics
    );
    assertEquals(fields, [
      {
        state: "checked",
        server: "typescript",
        introduced: [{
          line: 2,
          column: 3,
          message: "Type 'string' is not assignable to type 'number'.",
          code: "2322",
          source: "typescript",
        }],
        fixed: 0,
        errors: 1,
      },
      { state: "checked", server: "typescript", introduced: [], fixed: 1, errors: 0 },
    ]);
  },
);

Deno.test("tern -p: without a language server on PATH an edit's result is what it always was", async () => {
  await using project = await tempProject({ "src/twice.ts": GOOD_TS });
  await using model = await startFakeModel([
    { toolCalls: [read("src/twice.ts")] },
    { toolCalls: [edit("return n * 2;", 'return "n" + n;')] },
    { text: "Done." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "change twice", "--approve", "edits", "--output", "stream-json"],
    env: env(model.url, "/usr/local/bin:/usr/bin:/bin"),
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(
    lastResult(model.requests[2].messages),
    "Edited src/twice.ts: replaced 1 occurrence (+1 −1 lines)",
  );
  const result = run.stdout.split("\n").filter((line) => line.includes('"tool_result"'))[1];
  assert(!result.includes("diagnostics"), result);
});

serverTest(
  "the REPL's /diagnostics shows the server pyright-langserver found on PATH and what it said of the file",
  "pyright-langserver",
  true,
  async () => {
    await using project = await tempProject({
      "calc.py": "def area(r: float) -> float:\n    return 3.14 * r\n",
    });
    await using model = await startFakeModel([
      { toolCalls: [read("calc.py")] },
      {
        toolCalls: [{
          name: "edit_file",
          arguments: JSON.stringify({ path: "calc.py", old_text: "3.14 * r", new_text: '"pi" * r' }),
        }],
      },
      { text: "Changed." },
    ]);
    const run = await runTern({
      cwd: project.root,
      args: ["--approve", "edits"],
      env: env(model.url, `${LSP_BIN}:${PATH}`),
      input: "use a string\n/diagnostics\n/exit\n",
    });
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(run.stdout, "python: 1 new error");
    assertStringIncludes(
      run.stdout,
      `  python (${LSP_BIN}/pyright-langserver --stdio): ready · strict sandbox: writes only in the project, a ` +
        "private HOME, no network", // nothing to trust is not trust: a server may run the project's code
    );
    assertStringIncludes(run.stdout, '    error  calc.py:2:12: Operator "*" not supported');
  },
);

Deno.test('a project\'s "lsp": false is honoured before trust (it only turns servers off): /diagnostics says so', async () => {
  await using project = await tempProject({
    ".tern/settings.json": JSON.stringify({ lsp: false }),
    "a.py": "x = 1\n",
  });
  await using model = await startFakeModel([{ text: "Hi." }]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: env(model.url, `${LSP_BIN}:${PATH}`),
    input: "hello\n/diagnostics\n/exit\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, 'Diagnostics are off ("lsp": false in the settings).');
});
