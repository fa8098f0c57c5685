/** The interactive REPL: prompt, slash commands, one task per line, Ctrl-C cancels the running task. */
import type { AgentSession } from "../agent/agent_session.ts";
import type { ApproveMode } from "../config/settings.ts";
import type { TaskResult } from "../agent/loop/loop.ts";
import type { ImagePart } from "../llm/types.ts";
import { attachMentions } from "./input/attachments.ts";
import { shownStatusLine } from "./render/status_command.ts";
import { replGate } from "./prompts/repl_gate.ts";
import type { LineReader } from "./input/reader_contract.ts";
import { listenForCancel } from "./input/keys.ts";
import { Renderer } from "./render/renderer.ts";
import type { Sink } from "./render/sink.ts";
import { partialNote } from "./render/task_words.ts";
import { runSlashCommand, slashCommands } from "./commands/table.ts";
import type { SlashCommand } from "./commands/types.ts";
import { offerPlan, presentsPlan } from "./prompts/plan_accept.ts";
import { chooseOne } from "./prompts/choice.ts";
import { highlighterReady, loadHighlighter } from "./render/highlight.ts";
import { runBangLine } from "./bang_command.ts";
import type { Nudger } from "./notify/nudge.ts";

/** What the REPL needs besides its session. */
export interface ReplOptions {
  banner: string[];
  reader: LineReader;
  sink: Sink;
  /** Show a bug's stack (TERN_DEBUG=1). */
  debug?: boolean;
  /** The slash commands besides /help (default: the built-in ones). */
  commands?: SlashCommand[];
  /** What /help adds after the commands: command files not used, and why. */
  commandNotes?: readonly string[];
  /** The first message, sent before the prompt is shown (`tern "TASK"`); a `/command` runs as typed. */
  firstPrompt?: string;
  /** Nudges you when an approval waits or a long turn ends (the REPL on a terminal). */
  nudger?: Nudger;
  /** Where `/worktree NAME` goes on to work: the REPL then ends here, and repl_cli.ts opens it. */
  workIn?: (root: string) => void;
}

/** Shift+Tab's cycle; `all` joins it only when the session started in it (`--approve all`). */
function modeCycle(start: ApproveMode): ApproveMode[] {
  return start === "all" ? ["ask", "edits", "all", "plan"] : ["ask", "edits", "plan"];
}

/** Runs until the user leaves; resolves with the exit code (0). */
export async function runRepl(session: AgentSession, options: ReplOptions): Promise<number> {
  const { screen, useColor, coloursReady } = await openScreen(options);
  const commands = slashCommands(options.commands, options.commandNotes);
  const ask = (q: string) => options.reader.read(q);
  // On a terminal, commands ask with the approval prompt's one-key menu.
  const choose = options.sink.isTerminal
    ? <T extends string>(message: string, choices: { name: string; value: T }[]) =>
      chooseOne(message, choices, { useColor })
    : undefined;
  const runLine = async (line: string): Promise<"exit" | undefined> => {
    if (line.startsWith("/")) {
      const slash = { session, screen, runTask, ask, choose, workIn: options.workIn };
      return await runSlashCommand(line, commands, slash) === "exit" ? "exit" : undefined;
    }
    if (line.startsWith("!")) {
      await runBangLine(session, line.slice(1).trim(), { screen, sink: options.sink });
    } else await runTask(line);
  };
  try {
    return await promptLoop(session, options, screen, runLine);
  } finally {
    screen.dispose();
    options.reader.close();
  }

  /** One task typed (or the first prompt), then its status line; a plan it presents is offered. */
  async function runTask(task: string): Promise<void> {
    await coloursReady();
    const attached = await attachMentions(task, session.root, session.model);
    for (const note of attached.notes) screen.print(note, "dim");
    const started = performance.now();
    const result = await runOneTask(session, attached.task, { options, screen, images: attached.images });
    options.nudger?.turnEnded(performance.now() - started, result.text);
    const warn = (message: string) => screen.print(message, "yellow");
    screen.print(await shownStatusLine(session, result.usage, warn), "dim");
    if (presentsPlan(session, result)) await offerPlan({ session, screen, ask, runTask });
  }
}

/** The renderer with the banner printed, and a wait for code colours that only the first task can meet. */
async function openScreen(options: ReplOptions) {
  // On a terminal answers render as markdown; loaded here so headless runs never pay for the parser.
  const markdown = options.sink.isTerminal ? await import("./render/markdown.ts") : undefined;
  const useColor = options.sink.isTerminal && !Deno.env.get("NO_COLOR");
  // Code colours load while the person types; a task waits for them (bounded) so no code block is drawn plain.
  let waitForColours = markdown !== undefined && useColor;
  if (waitForColours) void loadHighlighter();
  const screen = new Renderer(options.sink, {
    showText: true,
    showReasoning: true,
    showUsage: false, // the status line after each task says it
    useColor,
    markdown: markdown && ((md) => new markdown.MarkdownStream(md)),
    width: () => terminalWidth(),
  });
  for (const line of options.banner) screen.print(line, "dim");
  screen.print(
    "/help for commands · !CMD runs a command · Shift+Tab: approval mode (ask, edits, plan) · Esc or Ctrl-C " +
      "cancels a task · Ctrl-D exits",
    "dim",
  );
  const coloursReady = async () => {
    // Only the first task can find them still loading; the bound runs from when it asks.
    if (!waitForColours) return;
    waitForColours = false;
    await highlighterReady();
  };
  return { screen, useColor, coloursReady };
}

/** Reads lines until Ctrl-D or `/exit` (the first prompt, when given, counts as typed); resolves 0. */
async function promptLoop(
  session: AgentSession,
  options: ReplOptions,
  screen: Renderer,
  runLine: (line: string) => Promise<"exit" | undefined>,
): Promise<number> {
  const modes = modeCycle(session.mode);
  // Shift+Tab cycles the approval mode; the prompt always shows it.
  const cycle = () => {
    session.mode = modes[(modes.indexOf(session.mode) + 1) % modes.length];
    return `${session.mode} › `;
  };
  let first = options.firstPrompt;
  while (true) {
    const input = first ?? await options.reader.read(`\n${session.mode} › `, { cycle });
    if (first !== undefined) screen.print(`\n${session.mode} › ${first}`);
    first = undefined;
    if (input === null) {
      options.sink.write("\n"); // Ctrl-D leaves the cursor after the prompt
      return 0;
    }
    const line = input.trim();
    if (line !== "" && await runLine(line) === "exit") return 0;
  }
}

async function runOneTask(
  session: AgentSession,
  task: string,
  { options, screen, images }: { options: ReplOptions; screen: Renderer; images: ImagePart[] },
): Promise<TaskResult> {
  const cancel = () => session.cancel();
  // On a terminal, Esc or Ctrl-C cancels (raw keys); the approval prompt takes the keys while it asks.
  const keys = options.sink.isTerminal ? listenForCancel(cancel) : undefined;
  Deno.addSignalListener("SIGINT", cancel);
  try {
    const approve = replGate({
      session,
      screen,
      keys,
      cancel,
      useColor: !Deno.env.get("NO_COLOR"),
      onAsk: (summary) => options.nudger?.approvalWaits(summary),
    });
    const result = await session.run(task, { approve, onEvent: (event) => screen.handle(event), images });
    report(result, screen, options.debug ?? false);
    return result;
  } finally {
    keys?.stop();
    Deno.removeSignalListener("SIGINT", cancel);
  }
}

function terminalWidth(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

function report(result: TaskResult, screen: Renderer, debug: boolean): void {
  if (result.exitReason === "cancelled") {
    screen.print("Cancelled. The conversation is kept; type the next task.", "yellow");
  } else if (result.error) screen.print(`error: ${result.error}`, "red");
  else if (result.partial) screen.print(partialNote(result.exitReason), "yellow");
  if (debug && result.debug) screen.print(result.debug, "dim");
}
