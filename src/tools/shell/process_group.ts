/**
 * Running a command in a process group of its own, killed whole (background children included) on timeout,
 * abort or a flood of output, with its output streamed to a sink and never waited on forever.
 */

import { CLEAN_BASH, helperScript } from "../../fs/helper_script.ts";
import { capture, drain, stopOnce } from "./_output_streams.ts";
import { runConfined } from "./confined_run.ts";
import type { Finished, GroupOptions, Leftovers } from "./run_contract.ts";

/**
 * Runs the command in a new session (`setsid`: no controlling terminal, so nothing can open /dev/tty and
 * prompt), which is also a process group of its own, and reports its pid (= the group id) on stderr so the
 * whole group can be killed: Deno.kill would need unscoped --allow-run, but `bash` is allowed. Without
 * setsid (macOS) a job-control shell (`set -m`) gives the process group. The wrapper's own stderr goes to
 * /dev/null first, because job-control notices ("[1]+ Done ...") would otherwise race the pid onto it.
 * `trap -` undoes bash's ignoring of SIGINT/SIGQUIT in background jobs, which children would inherit.
 */
const WRAPPER = `exec 3>&2 2>/dev/null
if command -v setsid >/dev/null; then
  (trap - INT QUIT; exec setsid "$@") </dev/null 2>&1 3>&- &
else
  set -m
  "$@" </dev/null 2>&1 3>&- &
fi
echo "$!" >&3
exec 3>&-
wait "$!"`;

/**
 * Politely, then surely: TERM the group, give it 0.2 s to exit, then KILL what is left. In the instant
 * before `setsid` has run there is no group yet, only the one process: it is signalled by its pid instead.
 */
const KILL_GROUP = `kill -TERM -- "-$1" 2>/dev/null || kill -TERM -- "$1" 2>/dev/null || exit 0
for i in 1 2 3 4 5 6 7 8 9 10; do
  sleep 0.02
  kill -0 -- "-$1" 2>/dev/null || kill -0 -- "$1" 2>/dev/null || exit 0
done
kill -KILL -- "-$1" 2>/dev/null || kill -KILL -- "$1" 2>/dev/null
exit 0`;

/**
 * At the command's end, on Linux: every process still in its session (`$1`, the session id = group id,
 * which `setpgid` cannot leave) is TERMed, then KILLed; the script prints one line `killed N`, then
 * `left PID ARGS` for each process still alive after that. A process that left the session (`setsid`) is
 * found by the marker in its environment (`$2`, from `/proc/PID/environ`): with `$3` = 1 (a background
 * command, ended whole) it is ended too, with every descendant of the session's processes and of the marked
 * ones (by parent pid, so a cleared environment does not hide a child whose parent is known); otherwise it
 * is only reported: it chose to outlive the command (a daemon), and the model decides. Without /proc
 * (macOS) it prints nothing.
 */
const REAP_SESSION = `[ -r /proc/self/stat ] || exit 0
table() {
  local dir stat
  for dir in /proc/[0-9]*; do
    read -r stat < "$dir/stat" 2>/dev/null || continue
    set -- \${stat##*) }
    [ "$1" != Z ] && printf '%s %s %s\\n' "\${dir#/proc/}" "$2" "$4"
  done
}
members() {
  local all pid ppid sid grew
  local -A seen=()
  all=$(table)
  while read -r pid ppid sid; do
    [ "$sid" = "$SID" ] && seen[$pid]=1
  done <<< "$all"
  if [ "$ALL" = 1 ]; then
    for pid in $(grep -lzxF -- "$MARK" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do seen[$pid]=1; done
    grew=1
    while [ "$grew" = 1 ]; do
      grew=0
      while read -r pid ppid sid; do
        [ -n "\${seen[$ppid]}" ] && [ -z "\${seen[$pid]}" ] && seen[$pid]=1 && grew=1
      done <<< "$all"
    done
  fi
  unset "seen[$$]"
  for pid in "\${!seen[@]}"; do [ -r "/proc/$pid/stat" ] && printf '%s ' "$pid"; done
}
SID=$1 MARK=$2 ALL=$3
found=$(members)
set -- $found
echo "killed $#"
if [ $# -gt 0 ]; then
  kill -TERM $found 2>/dev/null
  for i in 1 2 3 4 5 6 7 8 9 10; do
    found=$(members)
    [ -z "$found" ] && break
    sleep 0.02
  done
  [ -n "$found" ] && kill -KILL $found 2>/dev/null && sleep 0.02
fi
for pid in $(members) $(grep -lzxF -- "$MARK" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
  [ -r "/proc/$pid/cmdline" ] && [ "$pid" != "$$" ] || continue
  mapfile -d '' -t argv < "/proc/$pid/cmdline" 2>/dev/null
  echo "left $pid \${argv[*]}"
done
exit 0`;

/** Runs REAP_SESSION for session `sid`; resolves with what it found (undefined without /proc). */
async function reapSession(sid: number, marker: string, all: boolean): Promise<Leftovers | undefined> {
  try {
    const { stdout } = await helperScript(REAP_SESSION, "tern-reap", [String(sid), marker, all ? "1" : "0"], {
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    const lines = new TextDecoder().decode(stdout).split("\n").filter(Boolean);
    const killed = /^killed (\d+)$/.exec(lines[0] ?? "");
    if (!killed) return undefined;
    const survivors = lines.slice(1).filter((line) => line.startsWith("left ")).map((line) => line.slice(5));
    return { killed: Number(killed[1]), survivors: [...new Set(survivors)] };
  } catch {
    return undefined; // a helper that cannot start must not crash tern
  }
}

/**
 * Kills process group `pgid` (TERM, then KILL) through bash, in a clean environment; resolves when done.
 * Never rejects: a helper that cannot start must not crash tern (the caller reports the command's end).
 */
async function killGroup(pgid: number): Promise<void> {
  try {
    const killer = helperScript(KILL_GROUP, "tern-kill", [String(pgid)], {
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await killer.status;
  } catch {
    // Nothing more can be done from here; the wrapper's own exit still ends the call.
  }
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

/**
 * Runs `argv` (e.g. `["bash", "-c", command]`) in the wrapper with a clean environment and stdin closed;
 * kills its whole process group on timeout or abort. Resolves once nothing it started is left running.
 */
export async function runInGroup(argv: string[], options: GroupOptions): Promise<Finished> {
  if (options.sandboxed) return await runConfined(argv, options);
  const { signal, timeoutMs } = options;
  // Inherited by everything the command starts, even what leaves its session: how survivors are found.
  const marker = `TERN_COMMAND_ID=${crypto.randomUUID()}`;
  const child = new Deno.Command(CLEAN_BASH[0], {
    args: [...CLEAN_BASH.slice(1), "-c", WRAPPER, "tern", ...argv],
    cwd: options.cwd,
    clearEnv: true,
    env: { ...options.env, TERN_COMMAND_ID: marker.split("=")[1] },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { pgid, done: stderrDone } = watchPgid(child.stderr);
  const kills: Promise<void>[] = [];
  const kill = () => {
    const killing = pgid.then((id) => id === null ? undefined : killGroup(id)).catch(() => {});
    kills.push(killing);
    return killing;
  };
  const run = stopOnce(kill, { signal, timeoutMs });
  const maxBytes = options.maxOutputBytes ?? Number.POSITIVE_INFINITY;
  const reading = capture(child.stdout, options.sink, () => {
    if (reading.text.bytes > maxBytes) run.stop("output_cap");
  });
  try {
    const { code } = await child.status;
    await Promise.all(kills);
    const id = await pgid;
    let leftovers = id === null ? undefined : await reapSession(id, marker, options.endDetached === true);
    // After tern's own kill (timeout, cancel, cap), what is still in the session is the command's own
    // processes dying (slowly on a busy machine), not background work it left: reaped, not reported.
    if (run.stopped !== null && leftovers) leftovers = { ...leftovers, killed: 0 };
    await drain(reading, kill);
    return { code, stopped: run.stopped, bytes: reading.text.bytes, binary: reading.text.binary, leftovers };
  } finally {
    run.dispose();
    // Nothing may outlive the call: kill helpers and the stderr reader are awaited (test sanitizers check).
    await Promise.all(kills);
    await stderrDone;
    options.sink.end();
  }
}
