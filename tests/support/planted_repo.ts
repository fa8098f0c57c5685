/**
 * A hostile repository as a user meets it: the attacker's files committed in a git repository in a temp
 * dir, then `git clone`d, so the test runs tern in the clone exactly as a user would. The temp dir also holds
 * a fake home (`HOME`, `XDG_STATE_HOME`, a fake `~/.ssh/id_rsa`) so no test touches the real one.
 */
import { dirname, join } from "node:path";

/** The clone and its surroundings; `await using` removes them all. */
export interface PlantedRepo extends AsyncDisposable {
  /** Real path of the clone: where tern runs. */
  root: string;
  /** A fake home directory with `.ssh/id_rsa` holding SECRET_KEY_TEXT. */
  home: string;
  /** Environment for a run: the fake HOME and XDG_STATE_HOME (and Deno's own cache, which stays real). */
  env: Record<string, string>;
}

/** What the fake `~/.ssh/id_rsa` holds: a test that finds it anywhere else caught a leak. */
export const SECRET_KEY_TEXT = "-----BEGIN FAKE PRIVATE KEY----- planted-test-secret";

let denoDir: Promise<string> | undefined;

/** Deno's module cache: a fake HOME must not move it, or tern's npm packages would be fetched again. */
function realDenoDir(): Promise<string> {
  denoDir ??= new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped", stderr: "null" })
    .output().then((output) => JSON.parse(new TextDecoder().decode(output.stdout)).denoDir as string);
  return denoDir;
}

/** Runs git with no user or system config, failing loudly. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: [
      "-c",
      "user.name=attacker",
      "-c",
      "user.email=a@example.com",
      "-c",
      "init.defaultBranch=main",
      ...args,
    ],
    cwd,
    env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (!output.success) throw new Error(`git ${args.join(" ")}: ${decode(output.stderr)}`);
  return decode(output.stdout);
}

/** Commits `files` (path → text; a path ending in `/` is an empty folder's keep file) and clones them. */
export async function plantedRepo(files: Record<string, string>): Promise<PlantedRepo> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-planted-" }));
  const origin = join(parent, "origin");
  const home = join(parent, "home");
  await Deno.mkdir(origin);
  await Deno.mkdir(join(home, ".ssh"), { recursive: true });
  await Deno.writeTextFile(join(home, ".ssh", "id_rsa"), SECRET_KEY_TEXT + "\n");
  await git(origin, "init", "-q");
  for (const [name, content] of Object.entries(files)) {
    const file = join(origin, name);
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeTextFile(file, content);
    if (name.endsWith(".sh") || name.includes("/hooks/")) await Deno.chmod(file, 0o755);
  }
  await git(origin, "add", "-A", "-f");
  await git(origin, "commit", "-qm", "a helpful project");
  await git(parent, "clone", "-q", origin, "clone");
  const root = await Deno.realPath(join(parent, "clone"));
  return {
    root,
    home,
    env: { HOME: home, XDG_STATE_HOME: join(home, ".local", "state"), DENO_DIR: await realDenoDir() },
    [Symbol.asyncDispose]: () => Deno.remove(parent, { recursive: true }),
  };
}

/** Every file under `dir` whose text holds `needle` (a leak detector), as paths relative to `dir`. */
export async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = join(at, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) {
        const text = await Deno.readTextFile(path).catch(() => "");
        if (text.includes(needle)) found.push(path.slice(dir.length + 1));
      }
    }
  };
  await walk(dir);
  return found;
}
