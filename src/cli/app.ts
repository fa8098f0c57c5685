/**
 * The run behind tern's entry: one `AgentSession` started for the current directory (session_start.ts),
 * then a front end for it (one headless task, or the REPL). Loaded only once the arguments asked for a run.
 */
import type { CliArgs } from "./args.ts";
import type { LoadedSession } from "../agent/session.ts";
import { startSession } from "./session_start.ts";
import { closeFileHelper, fileHelper, useFileHelper } from "../fs/file_helper.ts";
import { usePlaceholderPool } from "../tools/shell/placeholder_pool.ts";
import { boundStatePath, stateDir } from "../agent/tern_dir.ts";

/** Runs tern with parsed `args`; `atExit` collects what must be stopped before the process exits. */
export async function runApp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  const root = Deno.realPathSync(Deno.cwd());
  // The file tools' checks run in one long-lived helper instead of a process each (file_helper.ts), started
  // now, beside the sandbox probe: the first read finds it ready instead of waiting on perl's start.
  useFileHelper();
  fileHelper();
  // The sandbox's placeholders are kept in tern's own state folder between commands, where it has one.
  usePlaceholderPool((dir) => boundStatePath(dir) === undefined ? undefined : stateDir(dir, "placeholders"));
  atExit.push(closeFileHelper);
  const headless = args.prompt !== undefined || args.inputFormat !== undefined;
  const interactive = !headless && Deno.stdin.isTerminal();
  const { config, session, mcp, sandbox, skillProblems, agents, trust, hookNotes } = await startSession(
    args,
    {
      root,
      atExit,
      interactive,
      repl: !headless,
      resume: () => firstSession(root, args, headless),
    },
  );
  if (headless) {
    // Not awaited first: the task starts while the probe runs (headless prints its line when it has it).
    const { runHeadlessCli } = await import("./headless/cli.ts");
    return await runHeadlessCli(session, { config, sandbox, args, mcp: mcp.hub });
  }
  const { runReplCli } = await import("./repl_cli.ts");
  const trustedProject = trust.project;
  return await runReplCli(session, {
    config,
    sandbox: await sandbox,
    mcp,
    skillProblems,
    agents,
    trustedProject,
    hookNotes,
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
  for (const repair of loaded.repairs) console.error(`tern: session ${loaded.header.id}: ${repair}`);
  return args.fork ? await forkedSession(root, loaded) : loaded;
}

/** `--fork`: the copy to continue, said on stderr; the original is left as it is. */
async function forkedSession(root: string, loaded: LoadedSession): Promise<LoadedSession> {
  const { forkSession } = await import("../agent/session_fork.ts");
  const copy = forkSession(root, loaded);
  console.error(
    `tern: forked session ${loaded.header.id} into ${copy.header.id}; the original is left as it is`,
  );
  return copy;
}

/** `tern -r` on a terminal: the sessions as a menu (arrows and Enter, or a digit); Esc picks none. */
async function pickOnTerminal(list: string[]): Promise<string | null> {
  const { chooseOne } = await import("./prompts/choice.ts");
  const choices = list.map((line, i) => ({ name: line.replace(/^\s*\d+\.\s/, ""), value: String(i + 1) }));
  const useColor = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
  return await chooseOne("Resume which session? (Esc: none)", choices, { useColor }) ?? null;
}
