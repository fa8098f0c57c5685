/**
 * Running a command confined by bubblewrap in one spawn: tern starts `bwrap`, which starts the command's
 * shell as the init of a PID namespace of its own (`--as-pid-1`), in a session of its own (`--new-session`).
 * No helper shell sits in between: when that shell exits, the kernel kills everything left in its namespace
 * (background processes, whatever left its session) before bwrap reaps it. A timeout, a cancel or an
 * output flood kills that shell the same way (KILL_SANDBOX); should tern itself die, `--die-with-parent`
 * does.
 */
import { helperScript } from "../../fs/helper_script.ts";
import { capture, delay, drain, stopOnce } from "./_output_streams.ts";
import type { Finished, GroupOptions } from "./run_contract.ts";

/**
 * Kills the children of bwrap `$1` (the command's shell, the init of the sandbox's PID namespace): its exit
 * takes the whole namespace with it before bwrap, which reaps it, exits. Killing bwrap itself would end
 * bwrap first and leave the namespace dying on its own for a moment after tern had gone on. Exit 1 when it
 * found no child to kill (bwrap still starting, or already gone). A children file has no final newline, so
 * `read` fails on it while still setting the line.
 */
const KILL_SANDBOX = `kids=
for file in /proc/$1/task/*/children; do read -r line <"$file"; kids="$kids $line"; done 2>/dev/null
[ -n "\${kids// }" ] || exit 1
kill -KILL $kids 2>/dev/null
exit 0`;

/** How long bwrap may take to reap the killed sandbox before it is killed itself. */
const REAP_GRACE_MS = 2000;

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
  const { kill, killing } = sandboxKiller(child);
  const run = stopOnce(kill, options);
  const maxBytes = options.maxOutputBytes ?? Number.POSITIVE_INFINITY;
  const check = () => {
    if (out.text.bytes + err.text.bytes > maxBytes) run.stop("output_cap");
  };
  const out = capture(child.stdout, options.sink, check);
  const err = capture(child.stderr, options.sink, check);
  try {
    const { code } = await child.status;
    await killing();
    const both = {
      done: Promise.all([out.done, err.done]).then(() => {}),
      cancel: () => (out.cancel(), err.cancel()),
    };
    await drain(both, kill);
    return {
      code,
      stopped: run.stopped,
      bytes: out.text.bytes + err.text.bytes,
      binary: out.text.binary || err.text.binary,
    };
  } finally {
    run.dispose();
    // Both pipes are read to their end, or given up: no stream outlives the call (test sanitizers check).
    out.cancel();
    err.cancel();
    await Promise.allSettled([out.done, err.done]);
    options.sink.end();
  }
}

/**
 * Kills a running sandbox once however often asked: its shell first (KILL_SANDBOX), so the namespace goes
 * with it, then bwrap if it does not reap the sandbox in time. `killing` is the kill under way, if one is.
 */
function sandboxKiller(child: Deno.ChildProcess) {
  const killBwrap = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone: nothing is left to kill.
    }
  };
  let killing: Promise<void> | undefined;
  const kill = () => {
    killing ??= (async () => {
      const killed = await helperScript(KILL_SANDBOX, "tern-kill", [String(child.pid)], {
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output().then((output) => output.success, () => false);
      if (!killed) return killBwrap();
      // bwrap exits once it has reaped the sandbox; should it not, it goes too (--die-with-parent then).
      const grace = delay(REAP_GRACE_MS);
      const outcome = await Promise.race([child.status, grace.wait]);
      grace.clear();
      if (outcome === "late") killBwrap();
    })();
    return killing;
  };
  return { kill, killing: () => killing };
}
