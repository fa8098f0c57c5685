/**
 * The REPL's slash commands: one table, so a feature adds its command as one entry (and its own module)
 * without touching the REPL loop. A command reads and changes the session only through `SlashContext`.
 */
import type { SlashCommand, SlashContext, SlashOutcome } from "./types.ts";
import { compactCommand, contextCommand } from "./compact.ts";
import { initCommand, memoryCommand } from "./memory.ts";
import { resumeCommand, sessionsCommand } from "./sessions.ts";
import { forkCommand, renameCommand } from "./session_edit.ts";
import { undoCommand } from "./undo.ts";
import { rewindCommand } from "./rewind.ts";
import { costCommand } from "./cost.ts";
import { expandCommand } from "./expand.ts";
import { permissionsCommand } from "./permissions.ts";
import { thinkingCommand } from "./thinking.ts";
import { diagnosticsCommand } from "./diagnostics.ts";

const clear: SlashCommand = {
  name: "/clear",
  help: "start a new conversation and session (forget the history, the files read and the approvals given)",
  run: async (ctx): Promise<SlashOutcome> => {
    await ctx.session.reloadMemory(); // a memory file written since (/init) goes into the new conversation
    ctx.session.clear();
    const id = ctx.session.sessionId;
    ctx.screen.print(`Conversation cleared.${id ? ` New session ${id}.` : ""}`, "dim");
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
  renameCommand,
  forkCommand,
  compactCommand,
  contextCommand,
  memoryCommand,
  initCommand,
  undoCommand,
  rewindCommand,
  costCommand,
  expandCommand,
  permissionsCommand,
  thinkingCommand,
  diagnosticsCommand,
  exit,
];

/**
 * The full table: the given commands plus /help, which lists them (custom commands apart, after the
 * built-in ones, then `notes`: the command files that were not used and why).
 */
export function slashCommands(
  commands: SlashCommand[] = BUILTIN_COMMANDS,
  notes: readonly string[] = [],
): SlashCommand[] {
  const help: SlashCommand = {
    name: "/help",
    help: "this help",
    run: (ctx) => {
      ctx.screen.print("Type a task and press Enter. While a task runs, Esc or Ctrl-C cancels it.");
      const builtin = all.filter((command) => !command.custom);
      const width = Math.max(...builtin.map((command) => command.name.length));
      for (const command of builtin) ctx.screen.print(`  ${command.name.padEnd(width)}  ${command.help}`);
      if (all.some((c) => c.custom)) {
        ctx.screen.print("Custom commands (Markdown files; each runs its prompt):");
      }
      for (const { name, help, custom } of all) {
        if (!custom) continue;
        ctx.screen.print(`  ${name}${custom.argumentHint ? ` ${custom.argumentHint}` : ""}  ${help}`);
        ctx.screen.print(`    ${custom.source}`, "dim");
      }
      for (const note of notes) ctx.screen.print(`  ${note}`, "yellow");
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
  const text = line.slice(name.length).trim();
  const command = table.find((entry) => entry.name === name || entry.aliases?.includes(name));
  if (command === undefined) {
    const near = nearest(name, table.flatMap((entry) => [entry.name, ...(entry.aliases ?? [])]));
    const hint = near ? `Did you mean ${near}? ` : "";
    ctx.screen.print(`Unknown command ${name}. ${hint}/help lists the commands.`, "yellow");
    return "continue";
  }
  return await command.run({ ...ctx, args, text });
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
