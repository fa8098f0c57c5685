/**
 * Running one hook command: bash in the project root, the event's JSON on its stdin, in a process group of
 * its own (runInGroup) killed whole at its time limit; confined by bubblewrap like execute_command's commands
 * when asked (the project's hooks), else with the user's own permissions. Its stdout and stderr come back
 * apart: the script below keeps them in two temporary files and prints them divided by a random line.
 */
import { childEnv } from "./child_env.ts";
import { guardedPaths } from "./guarded_paths.ts";
import { type OutputSink, runInGroup } from "./process_group.ts";
import { confinedArgv, detectBubblewrap } from "./sandbox.ts";
import { HeadTail } from "../_truncate.ts";

/** Characters of a hook's output kept at most (its head and tail). */
const MAX_HOOK_OUTPUT_CHARS = 64_000;

/** Bytes of output after which a hook is killed: a flood never ends on its own. */
const MAX_HOOK_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * `$1` is the hook's command. Its stdin is the event (from the environment, which the hook itself does not
 * see); its stdout and stderr are printed afterwards, the stderr after a line holding the marker.
 */
const SPLIT = `out=$(mktemp) && err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
trap 'exit 143' TERM
printf '%s' "$TERN_HOOK_INPUT" | (unset TERN_HOOK_INPUT TERN_HOOK_MARK; exec bash -c "$1") >"$out" 2>"$err"
code=$?
cat "$out"; printf '\\n%s\\n' "$TERN_HOOK_MARK"; cat "$err"
exit $code`;

/** What a hook command did. */
export interface HookCommandResult {
  /** Its exit code (meaningless when it was stopped). */
  code: number;
  stdout: string;
  stderr: string;
  /** Why tern stopped it before it ended on its own. */
  stopped: "timeout" | "cancel" | "output_cap" | null;
}

/** How one hook command runs. */
export interface HookCommandOptions {
  root: string;
  /** The event, as JSON: the command's stdin. */
  input: string;
  /** Run it confined by bubblewrap (no network, the project's protected files read-only). */
  sandboxed: boolean;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Runs `command` as a hook; never throws for the command's own failures (its exit code says them). */
export async function runHookCommand(
  command: string,
  options: HookCommandOptions,
): Promise<HookCommandResult> {
  const { root, sandboxed } = options;
  const mark = `tern-hook-${crypto.randomUUID()}`;
  // CLAUDE_PROJECT_DIR too: hooks written for Claude Code find their scripts by it.
  const env: Record<string, string> = {
    ...childEnv({ sandboxed }),
    TERN_PROJECT_DIR: root,
    CLAUDE_PROJECT_DIR: root,
  };
  const shell = ["bash", "-c", SPLIT, "tern-hook", command];
  const guarded = sandboxed ? guardedPaths(root) : undefined;
  let argv = shell;
  if (guarded) {
    const { userNamespace } = await detectBubblewrap();
    const confined = { root, home: env.HOME, path: env.PATH, network: false, userNamespace };
    argv = await confinedArgv({ ...confined, ...guarded }, shell);
  }
  const sink = new CollectedText();
  try {
    const finished = await runInGroup(argv, {
      cwd: root,
      env: { ...env, TERN_HOOK_INPUT: options.input, TERN_HOOK_MARK: mark },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      sink,
      maxOutputBytes: MAX_HOOK_OUTPUT_BYTES,
    });
    const text = sink.text.toString();
    const cut = text.lastIndexOf(`\n${mark}\n`);
    const stdout = cut === -1 ? text : text.slice(0, cut);
    const stderr = cut === -1 ? "" : text.slice(cut + mark.length + 2);
    return { code: finished.code, stdout, stderr, stopped: finished.stopped };
  } finally {
    await guarded?.cleanUp();
  }
}

/** Collects a hook's output in bounded memory. */
class CollectedText implements OutputSink {
  readonly text = new HeadTail(MAX_HOOK_OUTPUT_CHARS);

  push(text: string): void {
    this.text.push(text);
  }

  end(): void {}
}
