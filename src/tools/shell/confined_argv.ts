/**
 * The argv of one confined command: bwrap with the sandbox's arguments, joined to the pids cgroup of its limit
 * where the kernel offers one, around the shell line.
 */
import { pidsCgroup } from "./pids_cgroup.ts";
import { bwrapArgs, detectBubblewrap, MAX_PROCESSES, type SandboxOptions } from "./sandbox.ts";

/**
 * Where a command finds the file that joins its pids cgroup (a private mount point in its private /run):
 * cgroup v1's `tasks` or v2's `cgroup.procs`.
 */
const CGROUP_JOIN = "/run/tern-cgroup.join";

/**
 * The argv that runs `shell` (`["bash", "-c", SCRIPT]`) confined, in one spawn: bubblewrap with `bwrapArgs`
 * starts the shell as the init of its PID namespace (`--as-pid-1`: when it exits, the kernel kills whatever
 * it left behind) in a session of its own (no terminal to inject input into). Before the script, the shell
 * takes on the process limit (it joins a pids cgroup made once per process for root, whom the kernel exempts
 * from RLIMIT_NPROC; `ulimit -u` in a user namespace of its own otherwise) and sends its stderr to stdout.
 * All on the script's first line, so a syntax error there stops everything, the limit included, before
 * anything runs. The limit fails open, as it always did, where the kernel offers neither.
 */
export async function confinedArgv(options: SandboxOptions, shell: string[]): Promise<string[]> {
  const max = options.maxProcesses ?? MAX_PROCESSES;
  const cgroup = await pidsCgroup(max);
  const { tmpfsPerms } = await detectBubblewrap();
  // -try: should the cgroup be gone (removed by hand), the command runs, without the limit, as it always has.
  const binds = cgroup ? ["--bind-try", cgroup, CGROUP_JOIN] : [];
  const limits = [
    // "0" is the writer itself. Into v1's `tasks`, a single thread moving itself, the kernel skips the
    // lock that waits out an RCU grace period (7 ms of every command here); v2 takes it all the same.
    ...(cgroup ? [`echo 0 >${CGROUP_JOIN}`] : []),
    // Without a user namespace RLIMIT_NPROC would count all of the user's processes on the machine.
    ...(options.userNamespace ? [`ulimit -u ${max}`] : []),
  ];
  const prefix = `${limits.length > 0 ? `{ ${limits.join("; ")}; } 2>/dev/null; ` : ""}exec 2>&1; `;
  const [bash, flag, script, ...rest] = shell;
  return [
    "bwrap",
    ...bwrapArgs({ tmpfsPerms, ...options }),
    ...binds,
    "--new-session",
    "--as-pid-1",
    "--",
    bash,
    flag,
    prefix + script,
    ...rest,
  ];
}
