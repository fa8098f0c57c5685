/**
 * Tests that need a program tern does not ship (tmux to drive a terminal, bwrap for the shell sandbox, rg,
 * git for undo's snapshots, python3 for a racing process, openssl for test certificates): on a machine
 * without it they are skipped, and the skip says why in the test's name, instead of failing for a reason
 * that is not tern's.
 */

/** The programs some tests need. */
export type Program = "tmux" | "bwrap" | "rg" | "git" | "python3" | "openssl" | "chromium";

/** Where tern's own helpers also look (see helperEnv): a program there counts as installed. */
const SYSTEM_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

const known = new Map<Program, string | null>();

/** Why `program` cannot be used here, or null when it can (checked once per test process). */
export function whyMissing(program: Program): string | null {
  if (!known.has(program)) known.set(program, check(program));
  return known.get(program)!;
}

function check(program: Program): string | null {
  const dirs = [...(Deno.env.get("PATH") ?? "").split(":"), ...SYSTEM_DIRS].filter((dir) =>
    dir.startsWith("/")
  );
  const path = dirs.map((dir) => `${dir}/${program}`).find(executable);
  if (path === undefined) return `${program} is not installed`;
  if (program !== "bwrap") return null;
  // Installed is not enough: user namespaces may be off (a container), so bwrap must make a sandbox.
  const tried = new Deno.Command(path, {
    args: ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "true"],
    stdout: "null",
    stderr: "null",
  }).outputSync();
  return tried.success ? null : "bwrap cannot create a sandbox here";
}

function executable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o755) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * `Deno.test(name, fn)` when every program in `programs` can be used; otherwise the test is registered as
 * ignored, with the reason at the end of its name ("… (skipped: tmux is not installed)").
 */
export function testNeeding(programs: Program[], name: string, fn: () => void | Promise<void>): void {
  const missing = programs.map(whyMissing).filter((why): why is string => why !== null);
  if (missing.length === 0) Deno.test(name, fn);
  else Deno.test({ name: `${name} (skipped: ${missing.join("; ")})`, ignore: true, fn });
}
