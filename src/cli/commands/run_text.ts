/**
 * A slash command in a message that did not come from the REPL's line editor (`-p`, stream-json input, an
 * editor's prompt over ACP): run as the REPL would, with what it prints collected as plain lines for the
 * front end to show in its own way.
 */
import type { AgentSession } from "../../agent/agent_session.ts";
import { Renderer } from "../render/renderer.ts";
import { runSlashCommand } from "./table.ts";
import type { SlashCommand } from "./types.ts";
import { findCommand } from "./project_table.ts";

/** What running a command needs from its front end. */
export interface CommandRun {
  session: AgentSession;
  /** Shows what the command printed (one call per command, the lines joined). */
  print(text: string): void;
  /** Runs a prompt as a turn of this front end (a custom command's expanded prompt, /init). */
  runTask(text: string): Promise<void>;
}

/** Runs the command `text` starts with; false when it names none of `table` (the text is a prompt). */
export async function runCommandText(
  text: string,
  table: SlashCommand[],
  run: CommandRun,
): Promise<boolean> {
  if (findCommand(text, table) === undefined) return false;
  let printed = "";
  const flush = () => {
    if (printed !== "") run.print(printed.replace(/\n$/, ""));
    printed = "";
  };
  const screen = new Renderer({ write: (chunk) => (printed += chunk), isTerminal: false }, {
    showText: false,
    showReasoning: false,
    useColor: false,
  });
  try {
    await runSlashCommand(text.trim(), table, {
      session: run.session,
      screen,
      runTask: async (task) => {
        flush(); // what the command said comes before the turn it starts
        await run.runTask(task);
      },
    });
  } finally {
    screen.dispose();
    flush();
  }
  return true;
}
