/**
 * The REPL's slash commands: one table, so a feature adds its command as one entry (and its own module)
 * without touching the REPL loop. A command reads and changes the REPL's state only through `SlashContext`.
 */
import type { LoopOptions } from "../agent/loop_options.ts";
import type { Renderer } from "./render.ts";
import type { Snapshots } from "../agent/snapshots.ts";
import type { Started, Starter } from "./start.ts";
import { compactCommand, contextCommand } from "./commands/compact.ts";
import { initCommand, memoryCommand } from "./commands/memory.ts";
import { resumeCommand, sessionsCommand } from "./commands/sessions.ts";
import { undoCommand } from "./commands/undo.ts";

/** The run's pieces that the session, memory, compaction and undo commands use. */
export interface AppContext {
  root: string;
  starter: Starter;
  /** The project's shadow repository for /undo; null when git is missing. */
  snapshots: Snapshots | null;
  /** The loop's settings (client, model, context window) for a command's own model call. */
  loop: Omit<LoopOptions, "onEvent" | "signal" | "approve" | "registry">;
  /** Runs `text` as a user task, exactly as if typed (approval prompts included). */
  runTask(text: string): Promise<void>;
  /** Asks a question on the terminal; null at end of input. */
  ask(question: string): Promise<string | null>;
}
import type { ApprovalPolicy } from "../agent/approval.ts";
import type { PermissionRules } from "../agent/permission_rules.ts";
import type { SessionStats } from "./session_stats.ts";
import { costCommand } from "./commands/cost.ts";
import { expandCommand } from "./commands/expand.ts";
import { permissionsCommand } from "./commands/permissions.ts";
import { thinkingCommand } from "./commands/thinking.ts";

/** What a command may see and do. */
export interface SlashContext {
  /** The words after the command name. */
  args: string[];
  /** The current conversation and its tools. */
  current: Started;
  /** Replaces the current conversation (e.g. /clear, /resume). */
  replace(next: Started): void;
  /** Starts a fresh conversation and tools, as at launch. */
  startConversation(): Started;
  screen: Renderer;
  /** Absent in tests of the table alone; commands that need it say they are unavailable. */
  app?: AppContext;
  /** Tokens and cost so far (since start or /clear). */
  stats: SessionStats;
  /** The approval mode (Shift+Tab changes it) and the project's permission rules. */
  approvals: { policy: ApprovalPolicy; rules: PermissionRules };
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
  run(ctx: SlashContext): SlashOutcome | Promise<SlashOutcome>;
}

const clear: SlashCommand = {
  name: "/clear",
  help: "start a new conversation and session (forget the history, the files read and the approvals given)",
  run: (ctx) => {
    ctx.current.session?.detach();
    const next = ctx.startConversation();
    ctx.replace(next);
    ctx.screen.print(`Conversation cleared.${next.session ? ` New session ${next.session.id}.` : ""}`, "dim");
    return "continue";
  },
};

const exit: SlashCommand = {
  name: "/exit",
  aliases: ["/quit"],
  help: "leave (also /quit, Ctrl-D, or Ctrl-C twice on an empty prompt)",
  run: () => "exit",
};

/** The built-in commands, in /help order (/help itself is added by `slashCommands`). */
export const BUILTIN_COMMANDS: SlashCommand[] = [
  clear,
  resumeCommand,
  sessionsCommand,
  compactCommand,
  contextCommand,
  memoryCommand,
  initCommand,
  undoCommand,
  costCommand,
  expandCommand,
  permissionsCommand,
  thinkingCommand,
  exit,
];

/** The full table: the given commands plus /help, which lists them. */
export function slashCommands(commands: SlashCommand[] = BUILTIN_COMMANDS): SlashCommand[] {
  const help: SlashCommand = {
    name: "/help",
    help: "this help",
    run: (ctx) => {
      ctx.screen.print("Type a task and press Enter. While a task runs, Esc or Ctrl-C cancels it.");
      const width = Math.max(...all.map((command) => command.name.length));
      for (const command of all) ctx.screen.print(`  ${command.name.padEnd(width)}  ${command.help}`);
      return "continue";
    },
  };
  const all = [help, ...commands];
  return all;
}

/** Runs the command `line` names; an unknown one gets one line naming /help. */
export async function runSlashCommand(
  line: string,
  table: SlashCommand[],
  ctx: Omit<SlashContext, "args">,
): Promise<SlashOutcome> {
  const [name, ...args] = line.split(/\s+/);
  const command = table.find((entry) => entry.name === name || entry.aliases?.includes(name));
  if (command === undefined) {
    const near = nearest(name, table.flatMap((entry) => [entry.name, ...(entry.aliases ?? [])]));
    const hint = near ? `Did you mean ${near}? ` : "";
    ctx.screen.print(`Unknown command ${name}. ${hint}/help lists the commands.`, "yellow");
    return "continue";
  }
  return await command.run({ ...ctx, args });
}

/** The name closest to `word` (edit distance at most 2), if any. */
function nearest(word: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of names) {
    const d = distance(word, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
