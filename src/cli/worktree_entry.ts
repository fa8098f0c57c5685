/** `tern -w NAME`: the worktree made (or found), said on stderr, and made the current directory. */
import { relative } from "../fs/path.ts";
import { openWorktree } from "../agent/project/worktrees.ts";
import { warn } from "./project_choices.ts";

/** Opens tern's worktree NAME of the project at `root` and returns the project root inside it. */
export async function enterWorktree(root: string, name: string): Promise<string> {
  const { worktree, made } = await openWorktree(root, name, warn);
  const where = relative(root, worktree.root);
  warn(
    `${made ? "made" : "working in"} worktree ${name} (branch ${worktree.branch}) at ${where}` +
      (made ? `; tern worktrees lists it, tern worktrees remove ${name} removes it` : ""),
  );
  // Commands and hooks start in the project root; the permission flags were fixed at start and cover it.
  Deno.chdir(worktree.root);
  return worktree.root;
}
