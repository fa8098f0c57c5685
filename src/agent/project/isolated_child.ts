/**
 * A sub-agent's worktree of its own (the task tool's `isolation: "worktree"`): tern's worktree `task-<id>` of
 * the main project, opened through the same door as every project (its walls, trust and sandbox: no question
 * asked, the main run's trust flags decide), the child's session made there. When the child is done its
 * changes are committed on the worktree's branch and the branch and a capped diff stat come back; a child
 * that changed nothing leaves no worktree and no branch behind.
 */
import { relative } from "../../fs/path.ts";
import { userGit } from "./user_git.ts";
import type { ChildPlace } from "../loop/sub_agents.ts";
import type { NewSessionOptions, ProjectChoices } from "./project.ts";
import type { AgentSession } from "../agent_session.ts";
import { changedFiles, openWorktree, removeWorktree, ternsOwnGitignore, type Worktree } from "./worktrees.ts";

/** The diff stat shown at most: lines, then characters. */
const MAX_STAT_LINES = 20;
const MAX_STAT_CHARS = 2_000;

/** What of an opened project a child's worktree uses. */
interface ChildProject {
  newSession(options: NewSessionOptions): Promise<AgentSession>;
  close(options: { wait: boolean }): Promise<void>;
}

/** The core's door (open_project.ts's openProject), handed in by it. */
export type ProjectDoor = (root: string, choices: ProjectChoices) => Promise<ChildProject>;

/** Makes the worktree `name` of the project at `mainRoot` and opens it through `door` for one child. */
export async function isolatedPlace(
  mainRoot: string,
  name: string,
  choices: ProjectChoices,
  door: ProjectDoor,
): Promise<ChildPlace> {
  const { worktree } = await openWorktree(mainRoot, name, choices.warn);
  const base = (await userGit(worktree.path, ["rev-parse", "HEAD"])).stdout.trim();
  // Nobody to ask: the trust flags of the run (or the worktree's remembered decision) decide.
  const project = await door(worktree.root, { ...choices, askTrust: undefined });
  return {
    root: worktree.root,
    spawn: (config, setup, rules) =>
      project.newSession({ frontEnd: "headless", child: { config, setup, rules } }),
    finish: async (description) => {
      await project.close({ wait: false });
      return await outcome(mainRoot, worktree, { base, description });
    },
  };
}

/** Commits the child's work on its branch and describes it; removes a worktree with nothing in it. */
async function outcome(
  mainRoot: string,
  worktree: Worktree,
  work: { base: string; description: string },
): Promise<string> {
  const where = relative(mainRoot, worktree.path);
  if ((await changedFiles(worktree.path)) === 0) {
    await removeWorktree(mainRoot, worktree.name, {});
    await userGit(mainRoot, ["branch", "-d", "--", worktree.branch]); // only while it holds nothing new
    return `[worktree ${worktree.name}: the sub-agent changed no file; its worktree and branch were removed]`;
  }
  await userGit(worktree.path, ["add", "-A", "--", "."]);
  await unstageTernsOwn(worktree.path);
  const committed = await userGit(worktree.path, [
    "-c",
    "user.name=tern",
    "-c",
    "user.email=tern@localhost",
    "-c",
    "commit.gpgSign=false",
    "commit",
    "-q",
    "--no-verify",
    "-m",
    `tern sub-agent: ${work.description || "task"}`,
  ]);
  if (!committed.ok) {
    return `[worktree ${worktree.name} (${where}), branch ${worktree.branch}: its changes are there, ` +
      `uncommitted (git: ${committed.stderr.trim().split("\n").at(-1)})]`;
  }
  const stat = await userGit(worktree.path, [
    "diff",
    "--stat",
    "--no-ext-diff",
    "--no-textconv",
    work.base,
    "HEAD",
  ]);
  return [
    `[worktree ${worktree.name}: the sub-agent's work is committed on branch ${worktree.branch}, in ${where}; ` +
    `the main tree is unchanged (git merge ${worktree.branch} brings it in; tern worktrees remove ` +
    `${worktree.name} removes the worktree)]`,
    capped(stat.stdout),
  ].join("\n");
}

/** The `.tern/.gitignore` tern wrote in the worktree is tern's, not the child's work. */
async function unstageTernsOwn(path: string): Promise<void> {
  const added = await userGit(path, ["diff", "--cached", "--name-only", "--diff-filter=A", "-z"]);
  const ours = added.stdout.split("\0").filter((file) => ternsOwnGitignore(path, file));
  if (ours.length > 0) await userGit(path, ["rm", "-q", "--cached", "--", ...ours]);
}

function capped(stat: string): string {
  const lines = stat.trimEnd().split("\n");
  const head = lines.length > MAX_STAT_LINES + 1
    ? [
      ...lines.slice(0, MAX_STAT_LINES),
      `  … ${lines.length - MAX_STAT_LINES - 1} more files`,
      lines.at(-1)!,
    ]
    : lines;
  const text = head.join("\n");
  return text.length > MAX_STAT_CHARS ? `${text.slice(0, MAX_STAT_CHARS)}…` : text;
}
