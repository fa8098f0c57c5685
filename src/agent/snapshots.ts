/**
 * Project snapshots for undo: a shadow git repository under `.tern/snapshots/` with its own git dir and the
 * project as its work tree. It never reads or writes the user's `.git`, and needs no clean state there:
 * a snapshot is `git add -A` into its own index and `git write-tree`, so it covers what file tools and
 * shell commands changed alike. `.gitignore` is honoured; `.tern/` and `.git/` are never included.
 */
import { join } from "node:path";
import { ternDir } from "./tern_dir.ts";

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

  private constructor(root: string, gitDir: string) {
    this.#root = root;
    this.#gitDir = gitDir;
  }

  /** Opens (creating on first use) the shadow repository; null when git is not installed or fails. */
  static async open(root: string): Promise<Snapshots | null> {
    let gitDir: string;
    try {
      gitDir = join(ternDir(root, "snapshots"), "git");
    } catch {
      return null;
    }
    const snapshots = new Snapshots(root, gitDir);
    try {
      await Deno.stat(join(gitDir, "HEAD"));
      return snapshots;
    } catch {
      // First use: create it below.
    }
    const init = await snapshots.#git(["init", "--quiet"]);
    if (!init.ok) return null;
    for (const [key, value] of [["core.autocrlf", "false"], ["gc.auto", "0"], ["core.quotePath", "false"]]) {
      await snapshots.#git(["config", key, value]);
    }
    await Deno.writeTextFile(join(gitDir, "info", "exclude"), "/.tern/\n.git\n");
    return snapshots;
  }

  /** Snapshots the project tree as it is now; returns the tree id. */
  async take(): Promise<string> {
    await this.#stage();
    const tree = await this.#git(["write-tree"]);
    if (!tree.ok) throw new Error(`snapshot failed: ${tree.stderr.trim()}`);
    return tree.stdout.trim();
  }

  /** What restoring `tree` would change in the project as it is now. */
  async changes(tree: string): Promise<SnapshotChanges> {
    await this.#stage();
    const stat = await this.#git(["diff", "--cached", "--stat=100", tree]);
    const names = await this.#git(["diff", "--cached", "--name-only", "-z", tree]);
    if (!stat.ok || !names.ok) throw new Error(`cannot compare with the snapshot: ${stat.stderr.trim()}`);
    return { stat: stat.stdout.trimEnd(), paths: names.stdout.split("\0").filter(Boolean) };
  }

  /**
   * Puts every file back as it was in `tree`: changed files rewritten, deleted ones recreated, files
   * created since removed. Ignored files and `.tern/` are left alone.
   */
  async restore(tree: string): Promise<void> {
    await this.#stage();
    const run = await this.#git(["read-tree", "--reset", "-u", tree]);
    if (!run.ok) throw new Error(`restore failed: ${run.stderr.trim()}`);
  }

  async #stage(): Promise<void> {
    const add = await this.#git(["add", "--all", "--ignore-errors", "."]);
    if (!add.ok && !/warning|error: open/i.test(add.stderr)) {
      throw new Error(`snapshot failed: ${add.stderr.trim()}`);
    }
  }

  /** Runs git on the shadow repository only, with a minimal environment and no user or system config. */
  async #git(args: string[]): Promise<GitRun> {
    try {
      const output = await new Deno.Command("git", {
        args,
        cwd: this.#root,
        clearEnv: true,
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          GIT_DIR: this.#gitDir,
          GIT_WORK_TREE: this.#root,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
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
