/**
 * The slash commands of one session of a project, the same for every front end: the built-in ones, the views
 * of what the project supplies (MCP, skills, agents, hooks), and the custom commands the door found
 * (`.tern/commands`, `.claude/commands`, the user's own). The REPL, stream-json input and `tern acp` all run
 * a message that starts with one of them as the REPL would.
 */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Project } from "../../agent/project/project.ts";
import { BUILTIN_COMMANDS, slashCommands } from "./table.ts";
import type { SlashCommand } from "./types.ts";
import { mcpCommand } from "./mcp.ts";
import { modelCommand } from "./model.ts";
import { skillsCommand } from "./skills.ts";
import { agentsCommand } from "./agents.ts";
import { hooksCommand } from "./hooks.ts";
import { psCommand } from "./ps.ts";
import { worktreeCommand } from "./worktree.ts";
import { type CustomCommands, customCommands } from "./custom.ts";

/** The session's commands (/help apart: `withHelp` adds it), and what the custom commands' files left out. */
export interface CommandTable {
  commands: SlashCommand[];
  /** The command files not used and why, and what of a used one is not honoured (for /help). */
  notes: string[];
  custom: CustomCommands;
}

/** Every command name of `table`, aliases included. */
export function commandNames(table: SlashCommand[]): string[] {
  return table.flatMap((command) => [command.name, ...(command.aliases ?? [])]);
}

/** The commands of `session` on `project`. */
export function commandTable(project: Project, session: AgentSession): CommandTable {
  const builtin = [
    ...BUILTIN_COMMANDS,
    mcpCommand(project.mcp.hub, project.mcp.notes),
    skillsCommand(session.skills, project.skillProblems),
    agentsCommand(project.agents),
    hooksCommand(project.hookNotes),
    psCommand,
    modelCommand,
    worktreeCommand,
  ];
  const custom = customCommands(project.commands, commandNames(slashCommands(builtin)));
  return { commands: [...builtin, ...custom.commands], notes: [...custom.skipped, ...custom.notes], custom };
}

/** The whole table, /help included. */
export function withHelp(table: CommandTable): SlashCommand[] {
  return slashCommands(table.commands, table.notes);
}

/** The command `text` starts with, when it names one of `table` (`/name args`); else undefined. */
export function findCommand(text: string, table: SlashCommand[]): SlashCommand | undefined {
  const match = /^\/[^\s/]+/.exec(text.trimStart());
  if (!match) return undefined;
  return table.find((command) => command.name === match[0] || command.aliases?.includes(match[0]));
}
