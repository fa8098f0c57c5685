/** `tern worktrees` (the ones tern made: branch, changes, last session) and `tern worktrees remove NAME`. */
import { relative } from "../../fs/path.ts";
import { describeSession, listSessions } from "../../agent/log/session_list.ts";
import { listWorktrees, removeWorktree, type WorktreeStatus } from "../../agent/project/worktrees.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { UsageError } from "../usage_error.ts";

const USAGE = "use 'tern worktrees' (list) or 'tern worktrees remove NAME [--force]'";

/** Runs `tern worktrees ARGV` in the project at `root`; the exit code (errors are thrown, exit 2). */
export async function runWorktreesCli(
  root: string,
  argv: string[],
  print: (line: string) => void,
): Promise<number> {
  const [action = "list", ...rest] = argv;
  if (action === "list" && rest.length === 0) {
    const worktrees = await listWorktrees(root);
    if (worktrees.length === 0) print("tern has made no worktrees in this project (tern -w NAME makes one).");
    for (const worktree of worktrees) print(await listLine(root, worktree));
    return 0;
  }
  if (action === "remove") {
    const force = rest.includes("--force");
    const names = rest.filter((word) => word !== "--force");
    if (names.length !== 1 || names[0].startsWith("-")) {
      throw new UsageError(`tern worktrees remove takes one NAME (and --force); ${USAGE}`);
    }
    print(await removeWorktree(root, names[0], { force }));
    return 0;
  }
  throw new UsageError(`unknown worktrees action '${terminalSafe(argv.join(" "))}'; ${USAGE}`);
}

/** One worktree: name, branch, where, changed files, its newest session (sessions' text made safe). */
async function listLine(root: string, worktree: WorktreeStatus): Promise<string> {
  const head = `${worktree.name}  ${worktree.branch}  ${relative(root, worktree.path)}`;
  if (worktree.problem) {
    return `${head}  (${worktree.problem}: tern worktrees remove ${worktree.name} forgets it)`;
  }
  const changes = worktree.changes === undefined
    ? "changes unknown"
    : `${worktree.changes} changed file${worktree.changes === 1 ? "" : "s"}`;
  const [last] = await listSessions(worktree.root);
  const session = last ? `last session: ${terminalSafe(describeSession(last))}` : "no sessions yet";
  return `${head}  ${changes}  ${session}`;
}
