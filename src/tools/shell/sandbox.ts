/**
 * The shell sandbox: whether bubblewrap works on this machine (checked once per process), the bwrap
 * arguments that confine a command, and the answers the CLI banner and the approval policy need.
 */

import { isAbsolute, join, relative, resolve } from "../../fs/path.ts";
import { helperEnv } from "../../fs/helper_script.ts";
import { SHELL_STARTUP_FILES } from "../../config/protected_paths.ts";
import type { SandboxMode } from "../tool.ts";

/** Whether bubblewrap can confine commands here; `reason` is short and names no path. */
export interface SandboxProbe {
  available: boolean;
  reason: string;
  /** bwrap can also give commands a user namespace of their own (`--unshare-user`). */
  userNamespace?: boolean;
  /** bwrap takes `--perms` for a tmpfs (0.5 and later): a read-only placeholder costs one mount, not two. */
  tmpfsPerms?: boolean;
}

/** Finds out whether bubblewrap works; injectable so tests can simulate a machine without it. */
export type SandboxDetector = () => Promise<SandboxProbe>;

/**
 * What the confinement of commands is for a mode on this machine, as plain facts (the front end words them):
 * `bubblewrap` confines commands; `off` was the user's choice; `unavailable` means bubblewrap cannot run
 * here, so commands run unconfined; `refused` means it is required but cannot run, so no command runs.
 */
export type SandboxStatus =
  | { active: true; kind: "bubblewrap" }
  | { active: false; kind: "off" }
  /** `reason`: why bubblewrap cannot run, in the probe's words (short, naming no path). */
  | { active: false; kind: "unavailable" | "refused"; reason: string };

/** How one call runs: confined without network, confined with network, unconfined, or not at all. */
export type Confinement = "sandbox" | "sandbox+network" | "none" | "refused";

/** Where bubblewrap's confinement of one command comes from. */
export interface SandboxOptions {
  /** The project root, bound writable (omitted only by the availability probe). */
  root?: string;
  /** $HOME, replaced by an empty private directory (unless `ownHome`). */
  home?: string;
  /**
   * Keep the user's own $HOME, writable (an MCP server the user trusted: npx and uvx keep their caches
   * there); its startup files (HOME_STARTUP) stay read-only.
   */
  ownHome?: boolean;
  /** $PATH: its directories inside $HOME stay visible (read-only), so tools installed there still run. */
  path?: string;
  /** Keep the host's network (the model asked with `network: true` and the user approved). */
  network: boolean;
  /** Give the command a user namespace of its own (when the probe found that the kernel allows it). */
  userNamespace?: boolean;
  /** Most processes (and threads) the command may have at once; default MAX_PROCESSES. */
  maxProcesses?: number;
  /**
   * Paths below the root (relative) mounted read-only where they exist; default `.git/config` and
   * `.git/hooks`. The caller passes the one protected list (src/config/protected_paths.ts).
   */
  readOnly?: string[];
  /**
   * Folders below the root (relative) that stay writable but are mounted onto themselves first: a mount
   * point cannot be renamed, so a command cannot move `.git` away (with its read-only parts) and make a copy.
   */
  pinned?: string[];
  /** Missing paths below the root a command must not create: covered by an empty read-only folder. */
  guardMissing?: { dirs: string[] };
  /** bwrap takes `--perms` for a tmpfs (from the probe). */
  tmpfsPerms?: boolean;
}

/**
 * Most processes and threads a sandboxed command may run at once: enough for `make -j` or a JVM build, few
 * enough that a fork bomb cannot exhaust the machine's process table.
 */
export const MAX_PROCESSES = 1024;

/** Install roots in $HOME that hold credentials (~/.cargo/credentials.toml, ~/.local/share/keyrings). */
const ROOTS_WITH_SECRETS = ["", ".local", ".cargo"];

/**
 * The install root a PATH directory in $HOME belongs to: `<root>/bin` and `<root>/shims` need `<root>` too
 * (pyenv's shims run `<root>/libexec/pyenv` and `<root>/versions`; nvm's npm links into `../lib`). Undefined
 * for other directories and for roots that hold credentials, where only the directory itself is kept.
 */
function installRoot(dir: string, home: string): string | undefined {
  const name = dir.slice(dir.lastIndexOf("/") + 1);
  if (name !== "bin" && name !== "shims") return undefined;
  const parent = resolve(dir, "..");
  return ROOTS_WITH_SECRETS.includes(relative(home, parent)) ? undefined : parent;
}

/** Paths inside the root a command must not change when the caller names none: git would run them later. */
const READ_ONLY_IN_ROOT = [".git/hooks", ".git/config"];

/**
 * Toolchains and package caches in $HOME kept visible, read-only, inside the private $HOME: without them
 * `deno check` or `cargo build` would need the network for what is already on the machine. Only tools known
 * to cope with a read-only cache are listed (go's build cache, npm's cache must be writable: they start empty).
 */
const HOME_TOOLCHAINS = [".deno", ".cache/deno", ".rustup", ".cargo/registry", ".cargo/git", "go/pkg/mod"];

/** Files in $HOME that run code later (shell startup, git's config, ssh keys): read-only even in `ownHome`. */
const HOME_STARTUP = [
  ...SHELL_STARTUP_FILES,
  ".gitconfig",
  ".config/git",
  ".ssh",
  ".config/autostart",
  ".config/systemd",
];

/** Keeps DNS working with `network: true` where /etc/resolv.conf points into /run (systemd-resolved). */
const KEPT_IN_RUN = ["/run/systemd/resolve"];

/** True when normalised absolute path `child` is `parent` or below it (a string test: this runs per command). */
function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

/**
 * bwrap arguments (before `--` and the command): everything read-only, the root writable, /tmp, /run and
 * $HOME private and empty, own PID namespace, no network unless asked. Mount order matters:
 * the root is bound last, because it may live under /tmp or $HOME.
 */
export function bwrapArgs(options: SandboxOptions): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // /run holds sockets (docker, the session bus) that a read-only mount does not stop anyone connecting to.
  args.push("--tmpfs", "/run");
  for (const dir of KEPT_IN_RUN) args.push("--ro-bind-try", dir, dir);
  const home = options.home && isAbsolute(options.home) ? resolve(options.home) : undefined;
  if (home && home !== "/" && options.ownHome) {
    args.push("--bind", home, home);
    for (const name of HOME_STARTUP) args.push("--ro-bind-try", join(home, name), join(home, name));
  } else if (home && home !== "/") {
    args.push("--tmpfs", home);
    const onPath = (options.path ?? "").split(":").filter((dir) =>
      isAbsolute(dir) && inside(resolve(dir), home)
    );
    const kept = new Set([
      ...HOME_TOOLCHAINS.map((dir) => join(home, dir)),
      ...onPath.flatMap((dir) =>
        [installRoot(resolve(dir), home), resolve(dir)].filter((d) => d !== undefined)
      ),
    ]);
    // A folder inside another kept one is already there: each bind costs bwrap a parse of the mount table.
    for (const dir of kept) {
      if (![...kept].some((other) => other !== dir && inside(dir, other))) {
        args.push("--ro-bind-try", dir, dir);
      }
    }
  }
  const root = options.root;
  if (root) {
    args.push("--bind", root, root);
    for (const name of options.pinned ?? []) args.push("--bind-try", `${root}/${name}`, `${root}/${name}`);
    for (const name of options.readOnly ?? READ_ONLY_IN_ROOT) {
      args.push("--ro-bind-try", `${root}/${name}`, `${root}/${name}`);
    }
    // A mount point must exist: bwrap makes an empty one on the host, which the caller removes afterwards.
    // A tmpfs of mode 0555 refuses every write (no capability inside overrides it); chmod'ed by the command,
    // it takes writes into memory that vanish with the sandbox: the host never sees them. One mount each:
    // a bind or a remount costs bwrap a parse of the mount table, ten times the price (issue 18).
    for (const name of options.guardMissing?.dirs ?? []) {
      if (options.tmpfsPerms) args.push("--perms", "0555", "--tmpfs", `${root}/${name}`);
      else args.push("--tmpfs", `${root}/${name}`, "--remount-ro", `${root}/${name}`);
    }
  }
  // One kill of bwrap reaches everything inside: --die-with-parent kills the PID namespace's init, and with
  // it the namespace (execute_command starts its shell as that init, see confinedArgv).
  args.push("--chdir", root ?? "/", "--unshare-pid", "--die-with-parent");
  if (!options.network) args.push("--unshare-net");
  // tern often runs as root (containers, CI): without this, root inside could remount / read-write, unmount
  // the private /proc to read tern's environment, or create device nodes. A user namespace, where allowed,
  // also empties the capability bounding set, so nothing run inside (setuid included) gets one back.
  if (options.userNamespace) args.push("--unshare-user");
  args.push("--cap-drop", "ALL");
  return args;
}

/**
 * Runs `bwrap <sandbox> true` in a clean environment (PATH only: no LD_PRELOAD or the like); with
 * `tmpfsPerms`, over a placeholder of the read-only kind commands use.
 */
function tryBwrap(userNamespace: boolean, tmpfsPerms: boolean): Promise<Deno.CommandOutput> {
  // --as-pid-1: `true` is the namespace's init, reaped by bwrap itself (no init of bwrap's left a zombie).
  const home = Deno.env.get("HOME");
  const placeholder = tmpfsPerms ? ["--perms", "0555", "--tmpfs", "/tmp/tern-probe"] : [];
  const sandbox = bwrapArgs({ home, network: false, userNamespace });
  const args = [...sandbox, ...placeholder, "--as-pid-1", "--", "true"];
  return new Deno.Command("bwrap", { args, clearEnv: true, env: helperEnv(), stdin: "null", stdout: "null" })
    .output();
}

/**
 * Whether bwrap works (it may be missing, not allowed to us, or blocked: user namespaces off), first with a
 * user namespace of the command's own, then without.
 */
async function probe(): Promise<SandboxProbe> {
  try {
    const first = await tryBwrap(true, true);
    if (first.success) {
      return { available: true, reason: "bubblewrap works", userNamespace: true, tmpfsPerms: true };
    }
    // bwrap before 0.5 knows no --perms: placeholders are then mounted and remounted read-only.
    const tmpfsPerms = !new TextDecoder().decode(first.stderr).includes("--perms");
    if (!tmpfsPerms && (await tryBwrap(true, false)).success) {
      return { available: true, reason: "bubblewrap works", userNamespace: true, tmpfsPerms };
    }
    const { success, stderr } = await tryBwrap(false, tmpfsPerms);
    if (success) return { available: true, reason: "bubblewrap works", userNamespace: false, tmpfsPerms };
    const said = new TextDecoder().decode(stderr).split("\n")[0].replace(/\/\S*/g, "…").slice(0, 160);
    return {
      available: false,
      reason: `bubblewrap cannot create a sandbox here (${said || "no reason given"})`,
    };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { available: false, reason: "bubblewrap is not installed" };
    }
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return { available: false, reason: "tern may not run bwrap (its --allow-run lacks bwrap)" };
    }
    return { available: false, reason: `bubblewrap could not be started (${(error as Error).name})` };
  }
}

let probed: Promise<SandboxProbe> | undefined;

/** Whether bubblewrap works on this machine; probed once per process, then remembered. */
export function detectBubblewrap(): Promise<SandboxProbe> {
  probed ??= probe();
  return probed;
}

/** How a call with `args` runs under `mode` when bubblewrap is (or is not) `available`. Pure. */
export function confinement(mode: SandboxMode, available: boolean, args: { network?: boolean }): Confinement {
  if (mode === "off") return "none";
  if (!available) return mode === "required" ? "refused" : "none";
  return args.network === true ? "sandbox+network" : "sandbox";
}

/**
 * True when the call runs confined and without network: the only kind of command the approval policy
 * may run without asking under `--approve ask`. Pure.
 */
export function isSandboxed(mode: SandboxMode, available: boolean, args: { network?: boolean }): boolean {
  return confinement(mode, available, args) === "sandbox";
}

/** The state of the sandbox for `mode` on this machine (for the banner). */
export async function sandboxStatus(
  mode: SandboxMode,
  detect: SandboxDetector = detectBubblewrap,
): Promise<SandboxStatus> {
  if (mode === "off") return { active: false, kind: "off" };
  const { available, reason } = await detect();
  if (available) return { active: true, kind: "bubblewrap" };
  return { active: false, kind: mode === "required" ? "refused" : "unavailable", reason };
}
