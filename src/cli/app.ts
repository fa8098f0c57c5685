/**
 * The run behind tern's entry: the front end the arguments ask for (one headless task, or the REPL), made
 * first, then run by the core on the current directory (agent/project/front_end.ts: the project opened
 * through the one door, the session, the front end driving it). Loaded only once the arguments asked for a
 * run.
 */
import type { CliArgs } from "./args.ts";
import { type FrontEnd, runFrontEnd } from "../agent/project/front_end.ts";
import { projectChoices } from "./project_choices.ts";

/** Runs tern with parsed `args`; `atExit` collects what must be stopped before the process exits. */
export async function runApp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  const headless = args.prompt !== undefined || args.inputFormat !== undefined;
  const interactive = !headless && Deno.stdin.isTerminal();
  // What the command line chooses, bad usage said first: before a worktree is made or anything starts.
  const choices = projectChoices(args, interactive);
  const frontEnd = headless ? await headlessFrontEnd(args) : await replFrontEnd(args);
  const here = Deno.realPathSync(Deno.cwd());
  // -w: the project root is tern's worktree of this repository (loaded only then).
  const root = args.worktree
    ? await (await import("./worktree_entry.ts")).enterWorktree(here, args.worktree)
    : here;
  return await runFrontEnd(root, choices, frontEnd, atExit);
}

/** `-p` and `--input-format`'s front end (its modules loaded only for a headless run). */
async function headlessFrontEnd(args: CliArgs): Promise<FrontEnd> {
  const { HeadlessFrontEnd } = await import("./headless/cli.ts");
  return new HeadlessFrontEnd(args);
}

/** The REPL's front end (its modules, the line editor and the renderer, loaded only for the REPL). */
async function replFrontEnd(args: CliArgs): Promise<FrontEnd> {
  const { ReplFrontEnd } = await import("./repl_cli.ts");
  return new ReplFrontEnd(args);
}
