/**
 * `/undo`: puts back every file the last turn changed (by file tools and shell commands alike, from the
 * snapshot taken before its prompt) and rewinds the conversation to before that prompt. Asks first,
 * showing the files; the user may pick files only or the conversation only. Again goes one more turn back.
 */
import type { SlashCommand, SlashOutcome } from "./types.ts";

/** `/undo` over the session's snapshots (none when git is missing: then only the conversation rewinds). */
export const undoCommand: SlashCommand = {
  name: "/undo",
  help: "undo the last turn: restore the files it changed (shell commands included) and rewind to before it",
  run: async (ctx): Promise<SlashOutcome> => {
    const plan = await ctx.session.undoPlan();
    if (plan === null || !ctx.ask) {
      ctx.screen.print("Nothing to undo in this conversation.");
      return "continue";
    }
    const { changes } = plan;
    ctx.screen.print(`Undo the turn "${plan.prompt.replace(/\s+/g, " ").slice(0, 70)}"`);
    if (changes === null) {
      ctx.screen.print("git is not installed: only the conversation can be rewound.", "yellow");
    } else if (changes.paths.length === 0) ctx.screen.print("No file changed since that prompt.", "dim");
    else ctx.screen.print(`Files to restore:\n${changes.stat}`);
    const choices = changes?.paths.length
      ? "[a]ll, [f]iles only, [c]onversation only, [n]o"
      : "[c]onversation, [n]o";
    const answer = (await ctx.ask(`${choices}? `))?.trim().toLowerCase() ?? "n";
    const files = Boolean(changes?.paths.length) && (answer === "a" || answer === "f");
    const talk = answer === "a" || answer === "c" || (answer === "y" && !changes?.paths.length);
    if (!files && !talk) {
      ctx.screen.print("Nothing undone.", "dim");
      return "continue";
    }
    await ctx.session.undo(plan, { files, conversation: talk });
    const what = [files && `${changes!.paths.length} file(s) restored`, talk && "conversation rewound"];
    ctx.screen.print(`Undone: ${what.filter(Boolean).join(", ")}.`, "green");
    return "continue";
  },
};
