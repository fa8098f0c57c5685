/**
 * Custom slash commands in the REPL: each command file (agent/custom_commands.ts) becomes a `/name` that runs
 * its prompt, with the arguments put in. A name a built-in command holds is refused and said: a file never
 * shadows a built-in command.
 */
import {
  type CommandDefinition,
  expandCommand,
  type FoundCommands,
} from "../../agent/project/custom_commands.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";

/** The custom commands built, the files skipped (said at start and in /help), and what /help adds. */
export interface CustomCommands {
  commands: SlashCommand[];
  /** A file not used, and why: a built-in's name, a bad name, an empty prompt. */
  skipped: string[];
  /** What of a used file is not honoured, and a user folder tern may not read. */
  notes: string[];
}

/** The commands of `found` not named like one of `taken` (the built-in names, aliases included), and why not. */
export function customCommands(found: FoundCommands, taken: readonly string[]): CustomCommands {
  const commands: SlashCommand[] = [];
  const skipped = found.problems.map((problem) => `skipped ${problem}`);
  const notes: string[] = [];
  for (const definition of found.commands) {
    const name = `/${definition.name}`;
    if (taken.includes(name)) {
      skipped.push(
        `skipped ${definition.source}: ${name} is a built-in command, which a file never replaces`,
      );
      continue;
    }
    commands.push(customCommand(name, definition));
    for (const note of definition.notes) notes.push(`${definition.source}: ${note}`);
  }
  if (found.userDir && !found.userDir.readable) {
    notes.push(`${found.userDir.shown}: not read (tern's permission flags let it read only this project)`);
  }
  return { commands, skipped, notes };
}

function customCommand(name: string, definition: CommandDefinition): SlashCommand {
  const { source, argumentHint, description } = definition;
  return {
    name,
    help: description,
    custom: { source, ...argumentHint && { argumentHint } },
    run: async (ctx): Promise<SlashOutcome> => {
      if (!ctx.runTask) {
        ctx.screen.print("This command needs a full tern run.");
        return "continue";
      }
      ctx.screen.print(`${name}: the prompt of ${source}`, "dim");
      await ctx.runTask(expandCommand(definition.template, ctx.text ?? ctx.args.join(" ")));
      return "continue";
    },
  };
}
