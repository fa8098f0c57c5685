/**
 * Finding and starting a language server's program. tern may run only bash (and bwrap) and read only the
 * project, so PATH is searched by one bash for every program at once, the first time a file of a known
 * language is edited, and a server starts as `bash -c 'exec …'`: inside bubblewrap as MCP servers do
 * (server_sandbox.ts), without the network; a server of a project the user has not trusted gets the strict
 * sandbox, and does not start at all where nothing can confine it (it may run the project's code: a
 * workspace's own TypeScript, a build script).
 */
import { dirname, isAbsolute, relative } from "../../fs/path.ts";
import { childEnv } from "../shell/child_env.ts";
import { bwrapArgs, detectBubblewrap, type SandboxDetector, type SandboxProbe } from "../shell/sandbox.ts";
import type { SandboxMode } from "../../config/settings.ts";
import { SANDBOX_PROTECTED } from "../../config/protected_paths.ts";
import { sandboxWords, type ServerSandbox, serverSandbox } from "../mcp/server_sandbox.ts";

/** Where each program named in `names` is on PATH (absent when it is not); one bash, stdout only. */
export async function findPrograms(names: string[]): Promise<Map<string, string>> {
  const script =
    'for n; do p=$(command -v -- "$n") && case $p in /*) printf "%s\\t%s\\n" "$n" "$p";; esac; done';
  const found = new Map<string, string>();
  for (const line of (await bashOutput(script, "tern-lsp-find", names)).split("\n")) {
    const [name, path] = line.split("\t");
    if (path && names.includes(name)) found.set(name, path);
  }
  return found;
}

/** What `bash -c SCRIPT NAME ARGS…` prints on stdout (tern may run bash, and read only the project). */
async function bashOutput(script: string, name: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("bash", {
    args: ["-c", script, name, ...args],
    env: childEnv(),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(output.stdout);
}

/**
 * The strict sandbox's private HOME hides a server installed in HOME (named by its path in the settings, or
 * on PATH through a link, as `/usr/local/bin/deno` into an npm prefix): its package stays visible, read-only.
 * An npm package needs its whole `node_modules`. tern may not read outside the project: bash resolves links.
 */
async function keptProgram(program: string, home: string | undefined): Promise<string[]> {
  if (home === undefined) return [];
  const real = (await bashOutput('readlink -f -- "$1"', "tern-lsp-link", [program])).trim();
  return [...new Set([program, real])].flatMap((path) => {
    if (!isAbsolute(path) || !insideRoot(path, home)) return [];
    const npm = /^(.*\/node_modules)\//.exec(path);
    const dir = npm ? npm[1] : dirname(path);
    return dir === home ? [] : ["--ro-bind-try", dir, dir];
  });
}

/** True when `path` (absolute) is inside `root`: a program the project brought. */
export function insideRoot(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** How servers are started: tern's sandbox mode and whether the project is trusted. */
export interface SpawnOptions {
  root: string;
  sandbox: SandboxMode;
  /** The user trusted the project: its servers get the user's HOME (caches) in the sandbox. */
  trusted: boolean;
  /** How bubblewrap is detected (tests). */
  detect?: SandboxDetector;
}

/** A started server: its process and the sandbox it runs in. */
export interface SpawnedServer {
  child: Deno.ChildProcess;
  sandbox: ServerSandbox;
}

/** Starts `command` (its program already resolved) as `options` say; throws with the reason it may not run. */
export async function spawnServer(
  command: string[],
  network: boolean,
  options: SpawnOptions,
): Promise<SpawnedServer> {
  const probe = options.sandbox === "off" ? undefined : await (options.detect ?? detectBubblewrap)();
  const config = {
    name: "lsp",
    type: "stdio" as const,
    command: command[0],
    args: [],
    env: {},
    sandbox: true,
  };
  const how = serverSandbox({ ...config, network }, {
    mode: options.sandbox,
    available: probe?.available,
    unavailable: probe?.reason,
    trusted: options.trusted,
  });
  if (typeof how === "string") throw new Error(how);
  if (how.kind === "none" && !options.trusted) {
    throw new Error(
      `${sandboxWords(how)}; a server of a project you have not trusted runs only in the sandbox`,
    );
  }
  const sandboxed = how.kind !== "none";
  const env: Record<string, string> = childEnv({ sandboxed });
  // Without the network, npm is told so: a server that would fetch fails at once, saying why.
  if (sandboxed && !network) env.npm_config_offline = "true";
  const shell = ["bash", "-c", 'exec "$0" "$@"', ...command];
  const argv = sandboxed ? [...await jail(command[0], how, env, options.root, probe), "--", ...shell] : shell;
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    clearEnv: true,
    cwd: options.root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return { child, sandbox: how };
}

/** bubblewrap and its arguments for a server: the MCP servers' sandbox, with the program's package kept. */
async function jail(
  program: string,
  how: ServerSandbox,
  env: Record<string, string>,
  root: string,
  probe?: SandboxProbe,
): Promise<string[]> {
  const args = bwrapArgs({
    root,
    home: env.HOME,
    ownHome: how.kind === "project",
    path: env.PATH,
    network: how.network,
    userNamespace: probe?.userNamespace,
    readOnly: [".git/config", ".git/hooks", ...SANDBOX_PROTECTED.dirs, ...SANDBOX_PROTECTED.files],
  });
  return ["bwrap", ...args, ...(how.kind === "strict" ? await keptProgram(program, env.HOME) : [])];
}
