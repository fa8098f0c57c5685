/** The interactive REPL: prompt, slash commands, one task per line, Ctrl-C cancels the running task. */
import type { AgentSession } from "../agent/agent_session.ts";
import type { ApproveMode } from "../config/settings.ts";
import type { TaskResult } from "../agent/loop.ts";
import type { ImagePart } from "../llm/types.ts";
import { attachMentions } from "./input/attachments.ts";
import { statusLine } from "./render/status_line.ts";
import { replGate } from "./prompts/repl_gate.ts";
import type { LineReader } from "./input/line_reader.ts";
import { listenForCancel } from "./input/keys.ts";
import { Renderer, type Sink } from "./render/renderer.ts";
import { partialNote } from "./render/task_words.ts";
import { runSlashCommand, slashCommands } from "./commands/table.ts";
import type { SlashCommand } from "./commands/types.ts";
import { offerPlan, presentsPlan } from "./prompts/plan_accept.ts";
import { chooseOne } from "./prompts/choice.ts";
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
  /** Nudges you when an approval waits or a long turn ends (the REPL on a terminal). */
  nudger?: Nudger;
}

/** Shift+Tab's cycle; `all` joins it only when the session started in it (`--approve all`). */
function modeCycle(start: ApproveMode): ApproveMode[] {
  return start === "all" ? ["ask", "edits", "all", "plan"] : ["ask", "edits", "plan"];
}

/** Runs until the user leaves; resolves with the exit code (0). */
export async function runRepl(session: AgentSession, options: ReplOptions): Promise<number> {
  // On a terminal answers render as markdown; loaded here so headless runs never pay for the parser.
  const markdown = options.sink.isTerminal ? await import("./render/markdown.ts") : undefined;
  const screen = new Renderer(options.sink, {
    showText: true,
    showReasoning: true,
    showUsage: false, // the status line after each task says it
    useColor: options.sink.isTerminal && !Deno.env.get("NO_COLOR"),
    markdown: markdown && ((md) => new markdown.MarkdownStream(md)),
    width: () => terminalWidth(),
  });
  for (const line of options.banner) screen.print(line, "dim");
  screen.print(
    "/help for commands · Shift+Tab: approval mode (ask, edits, plan) · Esc or Ctrl-C cancels a task · " +
      "Ctrl-D exits",
    "dim",
  );
  const commands = slashCommands(options.commands, options.commandNotes);
  const ask = (q: string) => options.reader.read(q);
  const runTask = async (task: string): Promise<void> => {
    const attached = await attachMentions(task, session.root, session.model);
    for (const note of attached.notes) screen.print(note, "dim");
    const started = performance.now();
    const result = await runOneTask(session, attached.task, { options, screen, images: attached.images });
    options.nudger?.turnEnded(performance.now() - started, result.text);
    screen.print(statusLine(session.usage, result.usage), "dim");
    if (presentsPlan(session, result)) await offerPlan({ session, screen, ask, runTask });
  };
  // On a terminal, commands ask with the approval prompt's one-key menu.
  const useColor = options.sink.isTerminal && !Deno.env.get("NO_COLOR");
  const choose = options.sink.isTerminal
    ? <T extends string>(message: string, choices: { name: string; value: T }[]) =>
      chooseOne(message, choices, { useColor })
    : undefined;
  const slash = { session, screen, runTask, ask, choose };
  const modes = modeCycle(session.mode);
  // Shift+Tab cycles the approval mode; the prompt always shows it.
  const cycle = () => {
    session.mode = modes[(modes.indexOf(session.mode) + 1) % modes.length];
    return `${session.mode} › `;
  };
  try {
    while (true) {
      const input = await options.reader.read(`\n${session.mode} › `, { cycle });
      if (input === null) {
        options.sink.write("\n"); // Ctrl-D leaves the cursor after the prompt
        return 0;
      }
      const line = input.trim();
      if (line === "") continue;
      if (line.startsWith("/")) {
        if (await runSlashCommand(line, commands, slash) === "exit") return 0;
        continue;
      }
      await runTask(line);
    }
  } finally {
    screen.dispose();
    options.reader.close();
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
    const result = await session.run(task, {
      approve: replGate({
        session,
        screen,
        keys,
        cancel,
        useColor: !Deno.env.get("NO_COLOR"),
        onAsk: (summary) => options.nudger?.approvalWaits(summary),
      }),
      onEvent: (event) => screen.handle(event),
      images,
    });
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
