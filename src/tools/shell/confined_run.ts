/**
 * Running a command confined by bubblewrap in one spawn: tern starts `bwrap`, which starts the command's
 * shell as the init of a PID namespace of its own (`--as-pid-1`), in a session of its own (`--new-session`).
 * No helper shell sits in between: when that shell exits, the kernel kills everything left in its namespace
 * (background processes, whatever left its session) before bwrap reaps it; when bwrap is killed
 * (timeout, cancel, an output flood), `--die-with-parent` kills the shell, and with it the namespace.
 */
import { capture, drain } from "./_output_streams.ts";
import type { Finished, GroupOptions, Stop } from "./process_group.ts";

/**
 * Runs `argv` (bwrap and its arguments, from confinedArgv) with a clean environment and stdin closed;
 * stdout and stderr both go to the sink (the shell sends its stderr to stdout as it starts, so only what
 * bwrap itself or a syntax error on the first line says arrives on stderr). Resolves once the sandbox
 * is gone and its output read.
 */
export async function runConfined(argv: string[], options: GroupOptions): Promise<Finished> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    clearEnv: true,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone: nothing is left to kill.
    }
    return Promise.resolve();
  };
  let stopped: Stop | null = null;
  const stop = (why: Stop) => {
    if (stopped !== null) return;
    stopped = why;
    kill();
  };
  const maxBytes = options.maxOutputBytes ?? Number.POSITIVE_INFINITY;
  const check = () => {
    if (out.text.bytes + err.text.bytes > maxBytes) stop("output_cap");
  };
  const out = capture(child.stdout, options.sink, check);
  const err = capture(child.stderr, options.sink, check);
  const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = () => stop("cancel");
  options.signal.addEventListener("abort", onAbort);
  try {
    const { code } = await child.status;
    const both = {
      done: Promise.all([out.done, err.done]).then(() => {}),
      cancel: () => (out.cancel(), err.cancel()),
    };
    await drain(both, kill);
    return {
      code,
      stopped,
      bytes: out.text.bytes + err.text.bytes,
      binary: out.text.binary || err.text.binary,
    };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
    // Both pipes are read to their end, or given up: no stream outlives the call (test sanitizers check).
    out.cancel();
    err.cancel();
    await Promise.allSettled([out.done, err.done]);
    options.sink.end();
  }
}
