/**
 * tern's own runs of git on the user's repository (worktrees): the repository may be hostile, and its
 * `.git/config` and `.gitattributes` may name programs (hooks, fsmonitor, filters, an ssh command), so every
 * run gets a minimal environment and, on its command line, the settings that keep git from starting any of
 * them. The user's global identity and settings are read; the system's are not.
 */

/** What one git run printed. */
export interface GitRun {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/**
 * Settings every git run of tern's gets on its command line, whatever a config file says: nothing git could
 * start (hooks, fsmonitor, ssh, pager, editor, askpass) and no attributes file of the user's.
 */
export const GIT_STARTS_NOTHING = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.sshCommand=false",
  "core.pager=cat",
  "core.editor=false",
  "core.askPass=false",
  "core.attributesFile=/dev/null",
];

/** Settings every run gets, whatever a config file says: nothing git could start, no submodule descent. */
const SAFE_CONFIG = [
  ...GIT_STARTS_NOTHING,
  "submodule.recurse=false",
  "gc.auto=0",
  "maintenance.auto=false",
];

const decoder = new TextDecoder();

async function run(cwd: string, args: string[]): Promise<GitRun> {
  try {
    const output = await new Deno.Command("git", {
      args,
      cwd,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_TERMINAL_PROMPT: "0",
        GIT_OPTIONAL_LOCKS: "0",
        GIT_NO_REPLACE_OBJECTS: "1",
        LC_ALL: "C",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return {
      ok: output.success,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } catch (error) {
    return { ok: false, stdout: "", stderr: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The filter drivers any config file names, each emptied (`filter.X.smudge=` runs nothing): a repository's
 * `.gitattributes` can point any path at a driver its `.git/config` defines.
 */
async function filterOverrides(cwd: string): Promise<string[]> {
  const listed = await run(cwd, ["config", "--name-only", "--get-regexp", "^filter\\."]);
  const names = new Set(
    listed.stdout.split("\n").map((key) => /^filter\.(.+)\.[^.]+$/.exec(key)?.[1]).filter((name) =>
      name !== undefined
    ),
  );
  return [...names].flatMap((name) => [
    `filter.${name}.smudge=`,
    `filter.${name}.clean=`,
    `filter.${name}.process=`,
    `filter.${name}.required=false`,
  ]);
}

/** Runs `git ARGS` in `cwd` with the safe settings; never throws. */
export async function userGit(cwd: string, args: string[]): Promise<GitRun> {
  const settings = [...SAFE_CONFIG, ...await filterOverrides(cwd)];
  return await run(cwd, [...settings.flatMap((setting) => ["-c", setting]), ...args]);
}
