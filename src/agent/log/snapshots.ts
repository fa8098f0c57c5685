/**
 * Project snapshots for undo: a shadow git repository under `.tern/local/snapshots/` (tern's own bound
 * state, never a folder the repository brought) with its own git dir and the project as its work tree. It
 * never reads or writes the user's `.git`, and needs no clean state there: a snapshot is `git add -A` into
 * its own index and `git write-tree`, so it covers what file tools and shell commands changed alike.
 * `.gitignore` is honoured; `.tern/` and `.git/` are never included. git runs no code from anywhere: no
 * system or global config, no templates, no hooks, no fsmonitor, and no filter, ident or end-of-line
 * conversion from the project's `.gitattributes` (only the config tern writes is read, and only while its
 * seal holds: snapshot_seal.ts).
 */
import { join } from "../../fs/path.ts";
import { stateDir } from "../state/tern_dir.ts";
import { GIT_STARTS_NOTHING } from "../project/user_git.ts";
import { sealSnapshots, snapshotsSealed } from "./snapshot_seal.ts";

/**
 * Settings every git run gets on its command line, whatever a config file says: nothing git could start
 * (hooks, fsmonitor, ssh, pager, editor) and no attributes file of the user's.
 */
const SAFE_CONFIG = [
  ...GIT_STARTS_NOTHING,
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
].flatMap((setting) => ["-c", setting]);

/** Attributes for every path: the project's `.gitattributes` cannot ask for a filter or a conversion. */
const NEUTRAL_ATTRIBUTES = "* -filter -ident -text -working-tree-encoding\n";

/** One git run's outcome. */
interface GitRun {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** What a restore would change, from the snapshot to now. */
export interface SnapshotChanges {
  /** `git diff --stat` lines, e.g. ` a.txt | 2 +-`; empty when nothing changed. */
  stat: string;
  /** Paths (relative to the root) the restore writes or removes. */
  paths: string[];
}

/** The shadow repository of one project. */
export class Snapshots {
  readonly #root: string;
  readonly #gitDir: string;
  /** The operation in flight: one at a time, since each stages into the one shadow index. */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(root: string, gitDir: string) {
    this.#root = root;
    this.#gitDir = gitDir;
  }

  /** Opens (creating on first use) the shadow repository; null when git is not installed or fails. */
  static async open(root: string): Promise<Snapshots | null> {
    let dir: string;
    try {
      dir = stateDir(root, "snapshots");
    } catch {
      return null;
    }
    // One tern did not make here (a git pull wrote it) is never run: the start-up check moves it aside.
    if (!snapshotsSealed(root)) return null;
    const gitDir = join(dir, "git");
    if (await Deno.lstat(gitDir).then(() => true, () => false)) return new Snapshots(root, gitDir);
    // Made and sealed under a temporary name, then renamed into place: another tern starting at once never
    // finds it half made (and unsealed), and when both make one, the first rename wins.
    const temp = join(dir, `git-${crypto.randomUUID()}.tmp`);
    const made = await Snapshots.#make(root, temp);
    try {
      if (!made) throw new Error("not made");
      Deno.renameSync(temp, gitDir);
    } catch {
      await Deno.remove(temp, { recursive: true }).catch(() => {});
      const other = await Deno.lstat(gitDir).then(() => true, () => false);
      return other && snapshotsSealed(root) ? new Snapshots(root, gitDir) : null;
    }
    return new Snapshots(root, gitDir);
  }

  /** Makes a shadow repository at `gitDir` with the configuration tern writes, and seals it. */
  static async #make(root: string, gitDir: string): Promise<boolean> {
    const snapshots = new Snapshots(root, gitDir);
    // No template: nothing from the machine's git installation (sample hooks included) lands in it.
    const init = await snapshots.#git(["init", "--quiet", "--template="]);
    if (!init.ok) return false;
    for (const [key, value] of [["core.autocrlf", "false"], ["gc.auto", "0"], ["core.quotePath", "false"]]) {
      await snapshots.#git(["config", key, value]);
    }
    await Deno.mkdir(join(gitDir, "info"), { recursive: true });
    await Deno.writeTextFile(join(gitDir, "info", "exclude"), "/.tern/\n.git\n");
    await Deno.writeTextFile(join(gitDir, "info", "attributes"), NEUTRAL_ATTRIBUTES);
    try {
      sealSnapshots(root, gitDir);
      return true;
    } catch {
      return false;
    }
  }

  /** Snapshots the project tree as it is now; returns the tree id. */
  take(): Promise<string> {
    return this.#serial(() => this.#take());
  }

  async #take(): Promise<string> {
    await this.#stage();
    const tree = await this.#git(["write-tree"]);
    if (!tree.ok) throw new Error(`snapshot failed: ${tree.stderr.trim()}`);
    return tree.stdout.trim();
  }

  /** What restoring `tree` would change in the project as it is now. */
  changes(tree: string): Promise<SnapshotChanges> {
    return this.#serial(() => this.#changes(tree));
  }

  async #changes(tree: string): Promise<SnapshotChanges> {
    await this.#stage();
    const stat = await this.#git(["diff", "--cached", "--stat=100", tree]);
    const names = await this.#git(["diff", "--cached", "--name-only", "-z", tree]);
    if (!stat.ok || !names.ok) throw new Error(`cannot compare with the snapshot: ${stat.stderr.trim()}`);
    return { stat: stat.stdout.trimEnd(), paths: names.stdout.split("\0").filter(Boolean) };
  }

  /** The paths that differ between two snapshot trees (what changed from `from` to `to`). */
  changedBetween(from: string, to: string): Promise<string[]> {
    return this.#serial(async () => {
      const names = await this.#git(["diff", "--name-only", "-z", from, to]);
      if (!names.ok) throw new Error(`cannot compare two snapshots: ${names.stderr.trim()}`);
      return names.stdout.split("\0").filter(Boolean);
    });
  }

  /**
   * Puts every file back as it was in `tree`: changed files rewritten, deleted ones recreated, files
   * created since removed. Ignored files and `.tern/` are left alone. `keep` names paths to leave as they
   * are in `keep.tree` instead (the user's newer versions, taken just before).
   */
  restore(tree: string, keep?: { tree: string; paths: string[] }): Promise<void> {
    return this.#serial(() => this.#restore(tree, keep));
  }

  /**
   * Resolves once no operation is in flight: a session closes after its last background snapshot, so no
   * git of tern's is left writing the shadow repository (or its index.lock) once tern has exited.
   */
  async settled(): Promise<void> {
    await this.#queue;
  }

  /** Runs `operation` after the one in flight (a snapshot taken in the background at a turn's end). */
  #serial<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(operation, operation);
    this.#queue = next.catch(() => {});
    return next;
  }

  async #restore(tree: string, keep?: { tree: string; paths: string[] }): Promise<void> {
    await this.#stage();
    const run = await this.#git(["read-tree", "--reset", "-u", tree]);
    if (!run.ok) throw new Error(`restore failed: ${run.stderr.trim()}`);
    if (!keep || keep.paths.length === 0) return;
    const listed = await this.#git(["ls-tree", "-r", "-z", "--name-only", keep.tree, "--", ...keep.paths]);
    const present = listed.stdout.split("\0").filter(Boolean);
    if (present.length > 0) {
      const back = await this.#git(["checkout", keep.tree, "--", ...present]);
      if (!back.ok) throw new Error(`could not keep the newer files: ${back.stderr.trim()}`);
    }
    for (const path of keep.paths.filter((path) => !present.includes(path))) {
      // Absent in the newer state: removed again, but never through a link restored on the way.
      if (await this.#plainParents(path)) await Deno.remove(join(this.#root, path)).catch(() => {});
    }
  }

  /** True when every folder on the way to `path` is a real folder (no link leads the removal elsewhere). */
  async #plainParents(path: string): Promise<boolean> {
    const parts = path.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const info = await Deno.lstat(join(this.#root, ...parts.slice(0, i))).catch(() => undefined);
      if (!info?.isDirectory) return false;
    }
    return true;
  }

  async #stage(): Promise<void> {
    const add = await this.#git(["add", "--all", "--ignore-errors", "."]);
    if (!add.ok && !/warning|error: open/i.test(add.stderr)) {
      throw new Error(`snapshot failed: ${add.stderr.trim()}`);
    }
  }

  /**
   * Runs git on the shadow repository only, with a minimal environment, no user or system config, and the
   * settings that keep it from starting anything (SAFE_CONFIG).
   */
  async #git(args: string[]): Promise<GitRun> {
    try {
      const output = await new Deno.Command("git", {
        args: [...SAFE_CONFIG, ...args],
        cwd: this.#root,
        clearEnv: true,
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          GIT_DIR: this.#gitDir,
          GIT_WORK_TREE: this.#root,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
          GIT_ATTR_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          GIT_NO_REPLACE_OBJECTS: "1",
          GIT_OPTIONAL_LOCKS: "0",
          GIT_LITERAL_PATHSPECS: "1",
          GIT_AUTHOR_NAME: "tern",
          GIT_AUTHOR_EMAIL: "tern@localhost",
          GIT_COMMITTER_NAME: "tern",
          GIT_COMMITTER_EMAIL: "tern@localhost",
          LC_ALL: "C",
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      return { ok: output.success, stdout: decode(output.stdout), stderr: decode(output.stderr) };
    } catch (error) {
      return { ok: false, stdout: "", stderr: error instanceof Error ? error.message : String(error) };
    }
  }
}
