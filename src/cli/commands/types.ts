/** What a slash command is and what it may see: its own module, so the commands and the table import no circle. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Renderer } from "../render/renderer.ts";

/** What a command may see and do. */
export interface SlashContext {
  /** The words after the command name. */
  args: string[];
  /** Everything after the command name, as typed (spaces and quotes kept). */
  text?: string;
  /** The session: its conversation, model, usage, approval mode and rules, undo and compaction. */
  session: AgentSession;
  screen: Renderer;
  /** Runs `text` as a user task, exactly as if typed (approval prompts included); absent in tests of the table. */
  runTask?(text: string): Promise<void>;
  /** Asks a question on the terminal; null at end of input. Absent in tests of the table. */
  ask?(question: string): Promise<string | null>;
  /**
   * A one-key menu like the approval prompt's (digits, or arrows and Enter; Esc cancels: undefined). Absent
   * off a terminal, where commands ask with `ask`.
   */
  choose?<T extends string>(message: string, choices: { name: string; value: T }[]): Promise<T | undefined>;
  /**
   * Leaves this session, once the command returns "exit", to work in the project at `root` (a worktree),
   * opened through the door: the REPL only (elsewhere absent).
   */
  workIn?(root: string): void;
}

/** What the REPL does after a command. */
export type SlashOutcome = "continue" | "exit";

/** One slash command. */
export interface SlashCommand {
  /** With the slash, e.g. "/clear". */
  name: string;
  aliases?: string[];
  /** One line for /help. */
  help: string;
  /** A custom command (a Markdown file): /help lists it apart, with its file and what it takes. */
  custom?: { source: string; argumentHint?: string };
  run(ctx: SlashContext): SlashOutcome | Promise<SlashOutcome>;
}
