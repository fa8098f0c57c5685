/**
 * tern's own helper processes (the file tools' identity and create-in-place checks, the sandbox probe, the
 * process-group killer): bash scripts run without startup files in an environment of PATH only.
 */

/** The system directories, searched first by tern's own helpers. */
const FALLBACK_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * The whole environment of tern's own helper processes (the sandbox probe, the group killer, the file tools'
 * directory checks): PATH and nothing else. Inherited variables such as LD_PRELOAD or BASH_ENV (which bash
 * runs before any script) would otherwise run code of the user's or the project's choosing in an unconfined
 * helper, or break the probe. The system directories come first, so `stat` or `mv` is never one planted in a
 * project directory that happens to be on the user's PATH (direnv's PATH_add); the user's absolute entries
 * follow (bwrap may live in ~/.local/bin), relative ones (`.`, `node_modules/.bin`) are dropped.
 */
export function helperEnv(): Record<string, string> {
  const dirs = [...FALLBACK_PATH.split(":"), ...(Deno.env.get("PATH") ?? "").split(":")];
  return { PATH: [...new Set(dirs.filter((dir) => dir.startsWith("/")))].join(":") };
}

/** bash without startup files (`--noprofile --norc`; BASH_ENV is kept out by the clean environment). */
export const CLEAN_BASH = ["bash", "--noprofile", "--norc"];

/**
 * Where a helper's stdin, stdout and stderr go (always all three: spawn() and output() default differently),
 * and optionally the directory it starts in and variables besides PATH (fixed ones of tern's, never inherited).
 */
type HelperStdio = Required<Pick<Deno.CommandOptions, "stdin" | "stdout" | "stderr">> & {
  cwd?: string;
  env?: Record<string, string>;
};

/** One of tern's own bash scripts, run by CLEAN_BASH in the helper environment: `$0` is `name`, `$1…` `args`. */
export function helperScript(script: string, name: string, args: string[], stdio: HelperStdio): Deno.Command {
  const bashArgs = [...CLEAN_BASH.slice(1), "-c", script, name, ...args];
  const { env, ...rest } = stdio;
  return new Deno.Command(CLEAN_BASH[0], {
    args: bashArgs,
    clearEnv: true,
    env: { ...env, ...helperEnv() },
    ...rest,
  });
}
