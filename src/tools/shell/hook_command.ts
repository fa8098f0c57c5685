/**
 * Running one hook command: bash in the project root, the event's JSON on its stdin, in a process group of
 * its own (runInGroup) killed whole at its time limit; confined by bubblewrap like execute_command's commands
 * when asked (the project's hooks), else with the user's own permissions. Its stdout and stderr come back
 * apart: the script below keeps them in two temporary files and prints them divided by a random line.
 */
import { childEnv } from "./child_env.ts";
import { guardedPaths } from "./guarded_paths.ts";
import { runInGroup } from "./process_group.ts";
import type { OutputSink } from "./run_contract.ts";
import { detectBubblewrap } from "./sandbox.ts";
import { confinedArgv } from "./confined_argv.ts";
import { HeadTail } from "../_truncate.ts";

/** Characters of a hook's output kept at most (its head and tail): both streams' caps and the marker fit. */
const MAX_HOOK_OUTPUT_CHARS = 64_000;

/** Bytes of each of a hook's streams kept (the rest is read and dropped as it comes, so the hook goes on). */
export const HOOK_STREAM_CAP_BYTES = 30_000;

/** Bytes of output after which a hook is killed: a safety net, since the script below caps what it prints. */
const MAX_HOOK_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * `$1` is the hook's command. Its stdin is the event (from the environment, which the hook itself does not
 * see). Its stdout and stderr go through two FIFOs to readers that keep the first HOOK_STREAM_CAP_BYTES of
 * each and drop the rest as it comes: a hook printing gigabytes neither fills /tmp (in the sandbox, memory)
 * nor loses its exit code. Once the hook ends, the readers get a second to finish (a process the hook left
 * running may hold the FIFOs open; each reader says it is done on a third FIFO, which `read -t` waits on); `dd
 * bs=1` writes each byte as it comes (head's buffer would hold it back until its end). What was kept is
 * printed afterwards, the stderr after a line holding the marker.
 */
const SPLIT = `dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 143' TERM
mkfifo "$dir/o" "$dir/e" "$dir/t" || exit 1
exec 9<>"$dir/t"
keep() { dd bs=1 count=${HOOK_STREAM_CAP_BYTES} of="$1" 2>/dev/null; cat >/dev/null; echo >&9; }
keep "$dir/out" <"$dir/o" & a=$!
keep "$dir/err" <"$dir/e" & b=$!
printf '%s' "$TERN_HOOK_INPUT" | (unset TERN_HOOK_INPUT TERN_HOOK_MARK; exec bash -c "$1") >"$dir/o" 2>"$dir/e" 9>&-
code=$?
read -r -t 1 -u 9 _ && read -r -t 1 -u 9 _
kill "$a" "$b" 2>/dev/null
wait "$a" "$b" 2>/dev/null
cat "$dir/out"; printf '\\n%s\\n' "$TERN_HOOK_MARK"; cat "$dir/err"
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
