/** execute_command: run a shell command in the project root, in its own process group, with a timeout. */

import { HeadTail, MAX_OUTPUT_CHARS } from "./_truncate.ts";
import type { Tool, ToolContext, ToolResult } from "./tool.ts";

/** Timeout when the model gives none, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Longest timeout the model may ask for, in milliseconds. */
export const MAX_TIMEOUT_MS = 600_000;

/** How long output may keep flowing after the command exits (stray background writers) before they are killed. */
const DRAIN_GRACE_MS = 300;

/** Environment variables passed to commands; everything else (API keys above all) stays behind. */
const PASSED_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "USER", "SHELL", "TMPDIR"];

/** Names never passed on, even if listed above one day. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

/**
 * Runs the command as a background job of a shell with job control on (`set -m`), which puts it in a
 * process group of its own, and reports its pid (= the group id) on stderr so the whole group can be killed:
 * Deno.kill would need unscoped --allow-run, but `bash` is allowed. The wrapper's own stderr goes to
 * /dev/null first, because job-control notices ("[1]+ Done ...") would otherwise race the pid onto it.
 */
const WRAPPER = `exec 3>&2 2>/dev/null
set -m
bash -c "$1" </dev/null 2>&1 3>&- &
echo "$!" >&3
exec 3>&-
wait "$!"`;

/** Politely, then surely: TERM the group, give it 0.2 s to exit, then KILL what is left. */
const KILL_GROUP = `kill -TERM -- "-$1" 2>/dev/null || exit 0
for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.02; kill -0 -- "-$1" 2>/dev/null || exit 0; done
kill -KILL -- "-$1" 2>/dev/null
exit 0`;

const description = `Run a shell command with bash in the project root and return its exit code and output.
stdout and stderr are combined; stdin is closed (interactive programs get end-of-file). Long output keeps its \
beginning and end. The command is killed (with all its child processes) after timeout_ms. The environment is \
reduced: API keys and other secrets are not passed. Prefer read_file, list_dir and edit_file for files.`;

const parameters = {
  type: "object",
  properties: {
    command: { type: "string", description: "The bash command line to run, e.g. `deno test -A`." },
    timeout_ms: {
      type: "integer",
      minimum: 1,
      maximum: MAX_TIMEOUT_MS,
      description:
        `Kill the command after this many milliseconds. Default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}.`,
    },
  },
  required: ["command"],
  additionalProperties: false,
};

/** Arguments of execute_command, as validated against its schema. */
export type ExecuteCommandArgs = { command: string; timeout_ms?: number };

/** The reduced environment a command runs with: a few harmless variables, never a secret. */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = Deno.env.get(name);
    if (value !== undefined && !SECRET_NAME.test(name)) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return env;
}

/** Kills process group `pgid` (TERM, then KILL) through bash; resolves when done. */
async function killGroup(pgid: number): Promise<void> {
  const killer = new Deno.Command("bash", {
    args: ["-c", KILL_GROUP, "tern-kill", String(pgid)],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  await killer.status;
}

/**
 * Reads the wrapper's stderr to its end (so no stream is leaked); `pgid` resolves as soon as its first
 * line, the command's process group id, arrives, or null if the wrapper dies before printing it.
 */
function watchPgid(
  stderr: ReadableStream<Uint8Array>,
): { pgid: Promise<number | null>; done: Promise<void> } {
  const { promise: pgid, resolve } = Promise.withResolvers<number | null>();
  const parse = (text: string) => Number(/^(\d+)\n/.exec(text)?.[1] ?? Number.NaN);
  const done = (async () => {
    let text = "";
    for await (const chunk of stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      if (parse(text) > 1) resolve(parse(text));
    }
    resolve(parse(text) > 1 ? parse(text) : null);
  })();
  return { pgid, done };
}

/** Streams the command's output into a bounded head+tail capture; `cancel` stops waiting for it. */
function capture(
  stdout: ReadableStream<Uint8Array>,
  into: HeadTail,
): { done: Promise<void>; cancel(): void } {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  const done = (async () => {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      into.push(decoder.decode(value, { stream: true }));
    }
    into.push(decoder.decode());
  })();
  return { done, cancel: () => void reader.cancel().catch(() => {}) };
}

function delay(ms: number): { wait: Promise<"late">; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), ms));
  return { wait, clear: () => clearTimeout(timer) };
}

/** Waits for the output to end; stray background processes still holding it are killed, then abandoned. */
async function drain(
  output: { done: Promise<void>; cancel(): void },
  kill: () => Promise<void>,
): Promise<void> {
  for (const last of [false, true]) {
    const grace = delay(DRAIN_GRACE_MS);
    const outcome = await Promise.race([output.done, grace.wait]);
    grace.clear();
    if (outcome !== "late") return;
    if (last) output.cancel();
    else await kill();
  }
  await output.done;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** Why a command was stopped before it finished on its own. */
type Stop = "timeout" | "cancel";

function spawnWrapped(command: string, root: string): Deno.ChildProcess {
  return new Deno.Command("bash", {
    args: ["-c", WRAPPER, "tern", command],
    cwd: root,
    clearEnv: true,
    env: childEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function run(args: ExecuteCommandArgs, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.signal.aborted) return { content: "Cancelled before the command started.", isError: true };
  const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const child = spawnWrapped(args.command, ctx.root);
  const { pgid, done: stderrDone } = watchPgid(child.stderr);
  const text = new HeadTail(MAX_OUTPUT_CHARS);
  const output = capture(child.stdout, text);
  const kills: Promise<void>[] = [];
  const kill = () => {
    const killing = pgid.then((id) => id === null ? undefined : killGroup(id));
    kills.push(killing);
    return killing;
  };
  let stopped: Stop | null = null;
  const stop = (why: Stop) => {
    if (stopped !== null) return;
    stopped = why;
    kill();
  };
  const timer = setTimeout(() => stop("timeout"), timeoutMs);
  const onAbort = () => stop("cancel");
  ctx.signal.addEventListener("abort", onAbort);
  try {
    const { code } = await child.status;
    await drain(output, kill);
    return report(text.toString(), { code, stopped, timeoutMs });
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    // Nothing may outlive the call: kill helpers and the stderr reader are awaited (test sanitizers check).
    await Promise.all(kills);
    await stderrDone;
  }
}

function report(output: string, end: { code: number; stopped: Stop | null; timeoutMs: number }): ToolResult {
  const body = output === "" ? "(no output)" : output.replace(/\n$/, "");
  const killed = "the command and its child processes were killed";
  if (end.stopped === "timeout") {
    return { content: `${body}\n[timed out after ${seconds(end.timeoutMs)}: ${killed}]`, isError: true };
  }
  if (end.stopped === "cancel") {
    return { content: `${body}\n[cancelled by the user: ${killed}]`, isError: true };
  }
  return { content: `${body}\n[exit code ${end.code}]`, isError: end.code !== 0 };
}

/** The execute_command tool. */
export const executeCommandTool: Tool<ExecuteCommandArgs> = {
  name: "execute_command",
  description,
  parameters,
  effect: "exec",
  run,
};
