import { assert, assertEquals, assertStrictEquals, assertThrows } from "../support/assert.ts";
import { acpArgs, parseCliArgs } from "../../src/cli/args.ts";
import { HELP_TEXT } from "../../src/cli/help_text.ts";
import { UsageError } from "../../src/cli/usage_error.ts";
import { VERSION } from "../../src/cli/version.ts";

/** Asserts that `argv` is bad usage with exactly `message`, on one line, exit code 2. */
function assertUsageError(argv: string[], message: string, parse = parseCliArgs) {
  assert(((error: unknown) => {
    assert(error instanceof UsageError, `expected a UsageError for ${JSON.stringify(argv)}`);
    assertEquals([error.message, error.exitCode], [message, 2]);
    return true;
  })(assertThrows(() => parse(argv))));
}

Deno.test("parseCliArgs() with no arguments opens the REPL with the defaults", () => {
  assertEquals(parseCliArgs([]), {
    help: false,
    version: false,
    output: "text",
    approve: "ask",
    sandbox: "auto",
  });
});

Deno.test("parseCliArgs() reads every option, long and short", () => {
  const argv = [
    "-p",
    "fix the test",
    "--output=stream-json",
    "--provider",
    "kimi",
    "--model",
    "kimi-k2",
    "--base-url",
    "http://127.0.0.1:8000/v1",
    "--approve",
    "all",
    "--sandbox",
    "required",
    "--max-turns",
    "12",
    "--token-budget=50000",
  ];
  assertEquals(parseCliArgs(argv), {
    help: false,
    version: false,
    prompt: "fix the test",
    output: "stream-json",
    approve: "all",
    sandbox: "required",
    provider: "kimi",
    model: "kimi-k2",
    baseUrl: "http://127.0.0.1:8000/v1",
    maxTurns: 12,
    tokenBudget: 50_000,
  });
  assertStrictEquals(parseCliArgs(["--print", "task"]).prompt, "task");
});

Deno.test("parseCliArgs() recognises -h, --help, -v and --version", () => {
  assertStrictEquals(parseCliArgs(["-h"]).help, true);
  assertStrictEquals(parseCliArgs(["--help"]).help, true);
  assertStrictEquals(parseCliArgs(["-v"]).version, true);
  assertStrictEquals(parseCliArgs(["--version"]).version, true);
});

Deno.test("parseCliArgs() lets --help through even with --output json and no task", () => {
  assertStrictEquals(parseCliArgs(["--output", "json", "--help"]).help, true);
});

Deno.test("parseCliArgs() rejects an unknown option", () => {
  assertUsageError(["--foo"], "unknown option '--foo'");
  assertUsageError(["-x"], "unknown option '-x'");
});

Deno.test("parseCliArgs() answers an unknown option with the closest real one: other tools' flags, then typos", () => {
  assertUsageError(["--yolo"], "unknown option '--yolo'; did you mean --approve all?");
  assertUsageError(
    ["--dangerously-skip-permissions", "-p", "x"],
    "unknown option '--dangerously-skip-permissions'; did you mean --approve all?",
  );
  assertUsageError(["-m", "gpt-5"], "unknown option '-m'; did you mean --model?");
  assertUsageError(
    ["--permission-mode", "plan"],
    "unknown option '--permission-mode'; did you mean --approve (ask, edits, all or plan)?",
  );
  assertUsageError(["--modle", "x"], "unknown option '--modle'; did you mean --model?");
  assertUsageError(["--max-turn=3"], "unknown option '--max-turn'; did you mean --max-turns?");
  assertUsageError(["--zzz"], "unknown option '--zzz'");
});

Deno.test("parseCliArgs() takes Claude Code's --output-format as --output, also as --output-format=json", () => {
  assertEquals(parseCliArgs(["-p", "x", "--output-format", "stream-json"]).output, "stream-json");
  assertEquals(parseCliArgs(["-p", "x", "--output-format=json"]).output, "json");
  assertUsageError(
    ["-p", "x", "--output-format", "yaml"],
    "--output must be one of text, json, stream-json (got 'yaml')",
  );
});

Deno.test('parseCliArgs(): tern "TASK" opens the REPL with it; loose words, or a task beside -p, are bad usage', () => {
  const args = parseCliArgs(["fix the failing test", "--approve", "edits"]);
  assertEquals([args.firstPrompt, args.prompt, args.approve], ["fix the failing test", undefined, "edits"]);
  assertUsageError(["fix", "it"], `tern takes one task; quote it: tern "fix it"`);
  assertUsageError(["-p", "fix", "it"], `unexpected argument 'it'; -p takes the task: tern -p "TASK"`);
  assertUsageError(["  "], 'the task is empty; e.g. tern "fix the failing test"');
  assertUsageError(
    ["x", "--input-format", "stream-json", "--output", "json"],
    "unexpected argument 'x'; the tasks come on stdin",
  );
  assertUsageError(
    ["x", "--output", "json"],
    "x".length ? '--output json needs a headless task: tern -p "TASK" --output json' : "",
  );
});

Deno.test("parseCliArgs() rejects an option missing its value", () => {
  assertUsageError(["-p"], "option '-p, --print' needs a value");
  assertUsageError(["--model"], "option '--model' needs a value");
  assertUsageError(["--max-turns"], "option '--max-turns' needs a value");
});

Deno.test("parseCliArgs() rejects a value that looks like another option", () => {
  assertUsageError(
    ["--max-turns", "-3"],
    "option '--max-turns' needs a value; for a value starting with '-', write --max-turns=VALUE",
  );
  assertUsageError(
    ["-p", "-h"],
    "option '-p' needs a value; for a value starting with '-', write --print=VALUE",
  );
});

Deno.test("parseCliArgs() rejects a value given to a switch", () => {
  assertUsageError(["--help=yes"], "option '-h, --help' does not take an argument");
});

Deno.test("parseCliArgs() rejects an empty task or empty names", () => {
  assertUsageError(["-p", "  "], '-p needs a task, e.g. tern -p "fix the failing test"');
  assertUsageError(["--provider="], "--provider needs a value");
  assertUsageError(["--model", ""], "--model needs a value");
  assertUsageError(["--base-url", " "], "--base-url needs a value");
});

Deno.test("parseCliArgs() rejects a bad --output or --approve value, listing the good ones", () => {
  assertUsageError(
    ["-p", "t", "--output", "yaml"],
    "--output must be one of text, json, stream-json (got 'yaml')",
  );
  assertUsageError(["--approve", "yes"], "--approve must be one of ask, edits, all, plan (got 'yes')");
  assertUsageError(["--sandbox", "on"], "--sandbox must be one of off, auto, required (got 'on')");
});

Deno.test("parseCliArgs() takes --mode plan (plan mode) as --approve's synonym, refusing a disagreeing pair", () => {
  assertEquals(parseCliArgs(["--mode", "plan"]).approve, "plan");
  assertEquals(parseCliArgs(["--approve", "plan"]).approve, "plan");
  assertEquals(parseCliArgs(["--mode", "edits", "--approve", "edits"]).approve, "edits");
  assertUsageError(
    ["--mode", "plan", "--approve", "all"],
    "--approve all and --mode plan disagree; give one of them",
  );
  assertUsageError(["--mode", "fast"], "--mode must be one of ask, edits, all, plan (got 'fast')");
});

Deno.test("parseCliArgs() rejects --max-turns and --token-budget that are not positive whole numbers", () => {
  for (const value of ["0", "-1", "1.5", "1e3", "abc", "", "9007199254740993"]) {
    assertUsageError(
      [`--max-turns=${value}`],
      `--max-turns must be a positive whole number (got '${value}')`,
    );
    assertUsageError(
      [`--token-budget=${value}`],
      `--token-budget must be a positive whole number (got '${value}')`,
    );
  }
});

Deno.test("parseCliArgs() rejects json and stream-json output without a -p task", () => {
  assertUsageError(["--output", "json"], '--output json needs a headless task: tern -p "TASK" --output json');
  assertUsageError(
    ["--output", "stream-json"],
    '--output stream-json needs a headless task: tern -p "TASK" --output stream-json',
  );
});

Deno.test("HELP_TEXT names every option, environment variable and exit code", () => {
  const expected = [
    "--print",
    "--output",
    "--provider",
    "--model",
    "--base-url",
    "--api",
    "--require-tools",
    "--fallback",
    "--approve",
    "--max-turns",
    "--token-budget",
    "--help",
    "--version",
    "TERN_PROVIDER",
    "TERN_MODEL",
    "TERN_BASE_URL",
    "TERN_API",
    "TERN_API_KEY",
    "DEEPSEEK_API_KEY",
    "ANTHROPIC_API_KEY",
    "130 cancelled",
    VERSION,
  ];
  for (const word of expected) assert(HELP_TEXT.includes(word), word);
  assertStrictEquals(VERSION, "0.1.0");
});

Deno.test("parseCliArgs() reads -c, -r with and without an id, --no-session and --context-window", () => {
  assertStrictEquals(parseCliArgs(["-c", "-p", "go on"]).continue, true);
  assertStrictEquals(parseCliArgs(["--continue"]).continue, true);
  assertStrictEquals(parseCliArgs(["-r", "20261130-180000-abcd"]).resume, "20261130-180000-abcd");
  assertStrictEquals(parseCliArgs(["--resume"]).resume, "");
  assertStrictEquals(parseCliArgs(["-r", "-p", "x"]).resume, "");
  assertStrictEquals(parseCliArgs(["--resume=abc"]).resume, "abc");
  assertStrictEquals(parseCliArgs(["--no-session"]).noSession, true);
  assertStrictEquals(parseCliArgs(["--context-window", "8000"]).contextWindow, 8000);
  assertUsageError(["-c", "-r", "x"], "--continue and --resume both choose a session; give one of them");
  assertUsageError(["--context-window", "0"], "--context-window must be a positive whole number (got '0')");
});

Deno.test("parseCliArgs() reads --api as given (the configuration checks the word) and --require-tools in order", () => {
  const args = parseCliArgs(["--api", "anthropic", "--require-tools", " list_dir, read_file "]);
  assertEquals([args.api, args.requireTools], ["anthropic", ["list_dir", "read_file"]]);
});

Deno.test("parseCliArgs() rejects an empty --api and a --require-tools list with an empty name", () => {
  assertUsageError(["--api", " "], "--api needs a value");
  assertUsageError(
    ["--require-tools", "list_dir,,read_file"],
    "--require-tools needs tool names separated by commas, e.g. list_dir,read_file (got 'list_dir,,read_file')",
  );
  assertUsageError(
    ["--require-tools", ""],
    "--require-tools needs tool names separated by commas, e.g. list_dir,read_file (got '')",
  );
});

Deno.test("parseCliArgs() takes --input-format stream-json as a headless run, with json or stream-json output", () => {
  const args = parseCliArgs([
    "--input-format",
    "stream-json",
    "--output",
    "json",
    "--approval-timeout",
    "2m",
  ]);
  assertEquals([args.inputFormat, args.output, args.approvalTimeoutMs], ["stream-json", "json", 120_000]);
  assertEquals(parseCliArgs(["--input-format", "text"]).inputFormat, undefined);
  assertUsageError(
    ["--input-format", "stream-json"],
    "--input-format stream-json needs --output stream-json (every event) or --output json (the result)",
  );
  assertUsageError(
    ["--input-format", "stream-json", "--output", "json", "-p", "-"],
    "-p - reads the task from stdin, which --input-format stream-json reads as JSON lines",
  );
  assertUsageError(["--input-format", "xml"], "--input-format must be one of text, stream-json (got 'xml')");
  assertUsageError(
    ["--approval-timeout", "soon"],
    "--approval-timeout must be a duration such as 90s, 15m or 1h30m (got 'soon')",
  );
});

Deno.test("acpArgs() takes the model and approval options, and refuses a task, an output format or a session choice", () => {
  assertEquals(acpArgs(["--approve", "edits", "--sandbox", "off"]).approve, "edits");
  const refused = [[["-p", "x"], "-p"], [["-c"], "--continue/--resume"], [
    ["-w", "x"],
    "--worktree",
  ]] as const;
  for (const [argv, flag] of refused) {
    assertUsageError(
      [...argv],
      `tern acp takes its prompts and sessions from the editor; ${flag} does not apply`,
      acpArgs,
    );
  }
});

Deno.test("parseCliArgs() reads -w NAME and --worktree NAME; an empty name is bad usage", () => {
  assertEquals(parseCliArgs(["-w", "feat", "-p", "x"]).worktree, "feat");
  assertEquals(parseCliArgs(["--worktree", "feat"]).worktree, "feat");
  assertEquals(parseCliArgs([]).worktree, undefined);
  assertUsageError(["-w", " "], "--worktree needs a value");
  assertUsageError(["-w"], "option '-w, --worktree' needs a value");
});
