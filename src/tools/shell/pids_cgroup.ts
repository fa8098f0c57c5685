/**
 * The pids cgroup that caps the processes of root's sandboxed commands (the kernel exempts uid 0 from
 * RLIMIT_NPROC): made once per tern process and limit, on the first command that needs it, joined by each
 * command's shell from inside its sandbox, and removed when tern exits. Cgroups left behind by a tern that
 * was killed are removed by the next one. The file helper, already running, makes and removes it without
 * a process (a bash and a mkdir, then a bash and an rmdir, were four programs a run); where the helper is
 * off, the script below does.
 */
import { dirname } from "../../fs/path.ts";
import { helperScript } from "../../fs/helper_script.ts";
import { fileHelper } from "../../fs/file_wall.ts";

/**
 * As root only: finds this process's pids cgroup (cgroup v1 `pids`, or v2 with pids enabled below it),
 * removes `tern-sandbox-…-PID` cgroups whose tern is gone, makes `tern-sandbox-$2-$1` with pids.max $2 and
 * prints the file a process joins it through (v1's `tasks`, v2's `cgroup.procs`); prints nothing where it
 * cannot. The pid comes last, as every tern has named them. Builtins but for mkdir and rmdir, which come from the
 * system PATH (`command -p`): a project directory on the user's PATH must not supply them.
 */
const SETUP = `[ "$EUID" = 0 ] || exit 0
base=
while IFS=: read -r id controllers path; do
  [ "$controllers" = pids ] && base=/sys/fs/cgroup/pids\${path%/}
  [ "$id" = 0 ] && [ -z "$controllers" ] && v2=/sys/fs/cgroup\${path%/}
done </proc/self/cgroup 2>/dev/null
if [ -z "$base" ] && [ -n "$v2" ]; then
  read -r enabled <"$v2/cgroup.subtree_control" 2>/dev/null
  case " $enabled " in *" pids "*) base=$v2 ;; esac
fi
[ -n "$base" ] && [ -w "$base" ] || exit 0
for old in "$base"/tern-sandbox-*; do
  [ -d "$old" ] && ! kill -0 "\${old##*-}" 2>/dev/null && command -p rmdir "$old" 2>/dev/null
done
cg=$base/tern-sandbox-$2-$1
{ [ -d "$cg" ] || command -p mkdir "$cg"; } 2>/dev/null && echo "$2" >"$cg/pids.max" 2>/dev/null || exit 0
if [ -e "$cg/tasks" ]; then echo "$cg/tasks"; else echo "$cg/cgroup.procs"; fi`;

const made = new Map<number, Promise<string | undefined>>();
const created: string[] = [];
let removing = false;

/** Removes this process's cgroups as it exits (empty by then: each command's processes died with it). */
function removeAtExit(): void {
  removing = true;
  globalThis.addEventListener("unload", () => {
    if (created.length === 0) return;
    const script = 'for cg in "$@"; do command -p rmdir "$cg"; done 2>/dev/null; exit 0';
    try {
      // Synchronous: nothing asynchronous runs any more as the process exits.
      helperScript(script, "tern-cgroup", created, { stdin: "null", stdout: "null", stderr: "null" })
        .outputSync();
    } catch {
      // The next tern removes it.
    }
  });
}

/**
 * The file that joins this process's pids cgroup with limit `max` (made on the first call for that limit)
 * when a process writes "0" to it; undefined when not root or where the kernel offers no writable pids
 * controller.
 */
export function pidsCgroup(max: number): Promise<string | undefined> {
  let cgroup = made.get(max);
  if (cgroup === undefined) {
    const helper = fileHelper();
    cgroup = helper ? helper.pidsCgroup(Deno.pid, max).catch(() => viaScript(max)) : viaScript(max);
    made.set(max, cgroup);
  }
  return cgroup;
}

/** SETUP run as a script of its own; what it makes is removed as tern exits. */
function viaScript(max: number): Promise<string | undefined> {
  if (!removing) removeAtExit();
  return helperScript(SETUP, "tern-cgroup", [String(Deno.pid), String(max)], {
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output().then(({ stdout }) => {
    const path = new TextDecoder().decode(stdout).trim();
    if (path === "") return undefined;
    created.push(dirname(path));
    return path;
  }, () => undefined);
}
