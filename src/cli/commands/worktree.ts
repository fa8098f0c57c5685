/**
 * `/worktree NAME`: makes (or finds) tern's git worktree NAME of this project, as `tern -w NAME` does, and
 * works there: in the REPL this session ends and one in the worktree begins (a project of its own, opened
 * through the door: its own trust question, state and sessions); elsewhere it says how to work there.
 * `/worktree` alone lists the ones tern made.
 */
import { relative } from "../../fs/path.ts";
import { listWorktrees, openWorktree, WorktreeError } from "../../agent/project/worktrees.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";

/** The `/worktree` command. */
export const worktreeCommand: SlashCommand = {
  name: "/worktree",
  help: "/worktree NAME: make a git worktree on branch tern/NAME and work in it (alone: list them)",
  async run(ctx): Promise<SlashOutcome> {
    const root = ctx.session.root;
    if (ctx.args.length === 0) {
      const worktrees = await listWorktrees(root);
      if (worktrees.length === 0) {
        ctx.screen.print("tern has made no worktrees here (/worktree NAME makes one).");
      }
      for (const worktree of worktrees) {
        const changes = worktree.problem ?? `${worktree.changes ?? "?"} changed`;
        ctx.screen.print(
          `${worktree.name}  ${worktree.branch}  ${relative(root, worktree.path)}  ${changes}`,
        );
      }
      return "continue";
    }
    try {
      const warn = (line: string) => ctx.screen.print(terminalSafe(line), "dim");
      const { worktree, made } = await openWorktree(root, ctx.args[0], warn);
      const where = relative(root, worktree.root);
      ctx.screen.print(
        `${made ? "Made" : "Found"} worktree ${worktree.name} on branch ${worktree.branch} at ${where}.`,
      );
      if (ctx.workIn) {
        ctx.screen.print(`Working there now (tern -w ${worktree.name} comes back to it).`, "dim");
        ctx.workIn(worktree.root);
        return "exit";
      }
      ctx.screen.print(
        `To work there: tern -w ${worktree.name} (here, in another terminal), or cd ${where} && tern. ` +
          "This session stays in the main tree.",
        "dim",
      );
    } catch (error) {
      if (!(error instanceof WorktreeError)) throw error;
      ctx.screen.print(terminalSafe(error.message));
    }
    return "continue";
  },
};
