/** `tern` on a terminal: the banner, the command table, the line editor with history, then the REPL. */
import type { AgentSession } from "../agent/agent_session.ts";
import type { Project } from "../agent/project/project.ts";
import { sandboxLine } from "./render/sandbox_words.ts";
import type { SandboxStatus } from "../tools/shell/sandbox.ts";
import { VERSION } from "./version.ts";
import { commandNames, commandTable } from "./commands/project_table.ts";
import type { CustomCommands } from "./commands/custom.ts";
import { createCompleter } from "./input/completion.ts";
import { createLineReader } from "./input/line_reader.ts";
import type { McpStartup } from "../agent/project/mcp_startup.ts";
import { PromptHistory } from "./input/prompt_history.ts";
import { streamSink } from "./render/sink.ts";
import { runRepl } from "./repl.ts";
import { recapLines } from "./render/recap.ts";
import { statusLine } from "./render/status_line.ts";
import { slashCommands } from "./commands/table.ts";
import { replNudges } from "./notify/repl_nudge.ts";
import type { FrontEnd } from "../agent/project/front_end.ts";
import type { FirstSession } from "../agent/log/session_choice.ts";
import type { SessionSummary } from "../agent/log/session_list.ts";
import type { CliArgs } from "./args.ts";
import { checkRequiredTools, firstSessionChoice } from "./project_choices.ts";

/** What the command line adds to the REPL. */
export interface ReplCliOptions {
  /** `tern "TASK"`: sent as the first message once the REPL is up. */
  firstPrompt?: string;
  /** `--notify-command`. */
  notifyCommand?: string;
}

/** `tern` on a terminal (or with its input piped): the front end the core runs (agent/project/front_end.ts). */
export class ReplFrontEnd implements FrontEnd {
  readonly kind = "repl";
  readonly first?: FirstSession;
  readonly #options: ReplCliOptions;

  constructor(args: CliArgs) {
    this.#options = { firstPrompt: args.firstPrompt, notifyCommand: args.notifyCommand };
    // `-c` takes the latest REPL conversation; `-r` alone asks (the picker loaded only then).
    const pick = async (sessions: SessionSummary[]) =>
      (await import("./pick_session.ts")).pickSession(sessions);
    this.first = firstSessionChoice(args, pick, true);
  }

  run(project: Project, session: AgentSession): Promise<number> {
    checkRequiredTools(project, session);
    return runReplCli(project, session, this.#options);
  }
}

/**
 * Runs the REPL on `session` of `project` until the user leaves; resolves with the exit code. After
 * `/worktree NAME` it goes on in that worktree: a project opened through the door, closed here at the end.
 */
async function runReplCli(
  project: Project,
  session: AgentSession,
  options: ReplCliOptions = {},
): Promise<number> {
  try {
    while (true) {
      let next: string | undefined;
      const code = await replOn(project, session, options, (root) => next = root);
      if (next === undefined) return code;
      const root: string = next;
      const there = await openOrSay(project, root);
      if (there === undefined) return code;
      await project.close(); // the session left, with what it started (servers, background commands)
      project = there;
      Deno.chdir(root); // commands and hooks start in the project root (the flags cover it: it is inside)
      session = await project.newSession({ frontEnd: "repl", snapshots: true });
      options = { notifyCommand: options.notifyCommand }; // the first prompt was the first REPL's
    }
  } finally {
    await project.close();
  }
}

/** The worktree's project through the door, or undefined (said) when it cannot be opened. */
async function openOrSay(project: Project, root: string): Promise<Project | undefined> {
  try {
    return await project.openAnother(root);
  } catch (error) {
    console.error(`tern: cannot work in ${root}: ${error instanceof Error ? error.message : error}`);
    return undefined;
  }
}

/** One REPL on `session` until the user leaves or `/worktree` moves on (told through `workIn`). */
async function replOn(
  project: Project,
  session: AgentSession,
  options: ReplCliOptions,
  workIn: (root: string) => void,
): Promise<number> {
  const table = commandTable(project, session);
  const names = () => commandNames(slashCommands(table.commands));
  const sandbox = await project.sandbox;
  const nudges = replNudges(session, {
    command: options.notifyCommand,
    isTerminal: Deno.stdout.isTerminal(),
  });
  try {
    return await runRepl(session, {
      banner: [...banner(project, session, sandbox), ...customLines(table.custom)],
      commandNotes: table.notes,
      reader: createLineReader({
        history: await PromptHistory.load(session.root),
        complete: createCompleter(names, session.root),
      }),
      sink: streamSink(Deno.stdout),
      debug: Boolean(Deno.env.get("TERN_DEBUG")),
      commands: table.commands,
      firstPrompt: options.firstPrompt,
      nudger: nudges.nudger,
      // On a terminal only: lines piped in may be read ahead, and would be lost to the next reader.
      workIn: Deno.stdin.isTerminal() ? workIn : undefined,
    });
  } finally {
    nudges.stop();
  }
}

/** The REPL's banner: version, model, root, sandbox, notices, hooks, MCP, the session and a resumed recap. */
function banner(project: Project, session: AgentSession, sandbox: SandboxStatus): string[] {
  const { config, mcp } = project;
  const id = session.sessionId;
  const prompts = session.entries.filter((entry) => entry.kind === "user").length;
  const saved = id === undefined
    ? "session: not saved (--no-session)"
    : prompts > 0
    ? `session: ${id} (resumed, ${prompts} prompt(s))`
    : `session: ${id}`;
  const { model, label, provider, baseUrl } = session.model;
  // A custom endpoint is named by its host: "custom" alone says nothing about where requests go.
  const where = provider === "custom" ? `custom endpoint ${hostOf(baseUrl)}` : label;
  // A resumed conversation shows where it left off, and the totals it ran up so far.
  const recap = prompts > 0 ? [...recapLines(session.liveEntries()), statusLine(session.usage)] : [];
  return [
    `tern ${VERSION} · ${model} via ${where} · approval: ${session.mode}`,
    `project root: ${session.root}`,
    sandboxLine(sandbox),
    ...(config.notice ? [config.notice] : []),
    ...hookLine(session),
    ...mcpLine(mcp),
    saved,
    ...(session.canRestoreFiles
      ? []
      : ["git not found: /undo can rewind the conversation but not restore files"]),
    ...recap,
  ];
}

/** The banner's line on hooks, when there are any: which events, and where they are listed. */
function hookLine(session: AgentSession): string[] {
  const events = [...new Set(session.hooks.list().map((hook) => hook.event))];
  return events.length === 0 ? [] : [`hooks: ${events.join(", ")} (/hooks lists them)`];
}

/** The host (and port) of a base URL, e.g. "127.0.0.1:8000". */
function hostOf(baseUrl: string): string {
  return URL.canParse(baseUrl) ? new URL(baseUrl).host : baseUrl;
}

/** The banner's line on MCP servers: they start beside the REPL, and their tools join when ready. */
function mcpLine(mcp: McpStartup): string[] {
  const count = mcp.hub?.servers.length ?? 0;
  if (count === 0) return [];
  const servers = `${count} MCP server${count === 1 ? "" : "s"}`;
  return [`${servers} starting (their tools join at your next prompt once ready; /mcp shows them)`];
}

/** The banner's words on custom commands: which there are, and each file skipped. */
function customLines(custom: CustomCommands): string[] {
  const names = custom.commands.map((command) => command.name);
  const listed = names.length === 0 ? [] : [`custom commands: ${names.join(", ")} (/help lists them)`];
  return [...listed, ...custom.skipped];
}
