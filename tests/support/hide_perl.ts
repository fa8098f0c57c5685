/**
 * Running tern where perl cannot run: every perl on the helper's PATH is covered by /bin/false, in a mount
 * namespace of that one run (root and `unshare` needed; elsewhere the tests that need it are skipped).
 */

const HIDE_PERL =
  'for p in /usr/local/bin/perl /usr/bin/perl /bin/perl; do [ -e "$p" ] && mount --bind /bin/false "$p"; done; exec "$@"';

/** `argv` run with perl hidden. */
export function withPerlHidden(argv: string[]): string[] {
  return ["unshare", "--mount", "--propagation", "private", "bash", "-c", HIDE_PERL, "hide-perl", ...argv];
}

/** Whether this machine can hide perl from one run (root, and a private mount namespace). */
export function canHidePerl(): boolean {
  if (Deno.uid() !== 0) return false;
  try {
    return new Deno.Command("unshare", { args: ["--mount", "true"], stdout: "null", stderr: "null" })
      .outputSync()
      .success;
  } catch {
    return false;
  }
}

/** A tern-like process in `cwd` with only PATH, HOME and `env`; stdin, stdout and stderr piped. */
export function spawnIn(argv: string[], cwd: string, env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/root", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}
