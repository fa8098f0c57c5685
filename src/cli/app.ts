/**
 * The run behind tern's entry: the current directory opened through the core's one door (openProject), one
 * session from it, then a front end for it (one headless task, or the REPL). Loaded only once the arguments
 * asked for a run.
 */
import type { CliArgs } from "./args.ts";
import type { LoadedSession } from "../agent/log/session_file.ts";
import { openProject } from "../agent/project/open_project.ts";
import { closeFileWall } from "../fs/file_wall.ts";
import { checkRequiredTools, projectChoices } from "./project_choices.ts";

/** Runs tern with parsed `args`; `atExit` collects what must be stopped before the process exits. */
export async function runApp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  const headless = args.prompt !== undefined || args.inputFormat !== undefined;
  const interactive = !headless && Deno.stdin.isTerminal();
  // What the command line chooses, bad usage said first: before a worktree is made or anything starts.
  const choices = projectChoices(args, interactive);
  const here = Deno.realPathSync(Deno.cwd());
  // -w: the project root is tern's worktree of this repository (loaded only then).
  const root = args.worktree
    ? await (await import("./worktree_entry.ts")).enterWorktree(here, args.worktree)
    : here;
  atExit.push(closeFileWall);
  const project = await openProject(root, choices);
  // A headless run exits as soon as its answer is out: its servers are signalled, not waited for.
  atExit.push(() => project.close({ wait: !headless }));
  const resume = await firstSession(root, args, headless);
  const session = await project.newSession({
    resume,
    frontEnd: headless ? "headless" : "repl",
    snapshots: !headless,
  });
  checkRequiredTools(project, session);
  if (headless) {
    const { runHeadlessCli } = await import("./headless/cli.ts");
    return await runHeadlessCli(project, session, args);
  }
  const { runReplCli } = await import("./repl_cli.ts");
  return await runReplCli(project, session, {
    firstPrompt: args.firstPrompt,
    notifyCommand: args.notifyCommand,
  });
}

/** The session to continue (-c, -r), chosen here because choosing may ask on the terminal; else none. */
async function firstSession(
  root: string,
  args: { continue?: boolean; resume?: string; fork?: boolean },
  headless: boolean,
): Promise<LoadedSession | undefined> {
  if (!args.continue && args.resume === undefined) return undefined;
  // Loaded only here: a run that resumes nothing never pays for them (node:process and node:readline alone
  // are some 6 MB).
  const { chooseSession } = await import("./commands/sessions.ts");
  const ask = headless ? undefined : Deno.stdin.isTerminal() ? pickOnTerminal : async (list: string[]) => {
    const { createLineReader } = await import("./input/line_reader.ts");
    console.error(list.join("\n"));
    const reader = createLineReader();
    try {
      return await reader.read("session number or id: ");
    } finally {
      reader.close();
    }
  };
  const loaded = await chooseSession(root, { ...args, repl: !headless }, ask);
  return args.fork ? await forkedSession(root, loaded) : loaded;
}

/**
 * `--fork`: the copy to continue, said on stderr; the original is left as it is. The copy carries what
 * loading the original left out, which the door says with the session's other start-up lines.
 */
async function forkedSession(root: string, loaded: LoadedSession): Promise<LoadedSession> {
  const { forkSession } = await import("../agent/log/session_fork.ts");
  const copy = forkSession(root, loaded);
  console.error(
    `tern: forked session ${loaded.header.id} into ${copy.header.id}; the original is left as it is`,
  );
  const repairs = loaded.repairs.map((repair) => `${repair} (in the original, ${loaded.header.id})`);
  return { ...copy, repairs: [...repairs, ...copy.repairs] };
}

/** `tern -r` on a terminal: the sessions as a menu (arrows and Enter, or a digit); Esc picks none. */
async function pickOnTerminal(list: string[]): Promise<string | null> {
  const { chooseOne } = await import("./prompts/choice.ts");
  const choices = list.map((line, i) => ({ name: line.replace(/^\s*\d+\.\s/, ""), value: String(i + 1) }));
  const useColor = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
  return await chooseOne("Resume which session? (Esc: none)", choices, { useColor }) ?? null;
}
