/**
 * `/undo`: puts back every file the last turn changed (by file tools and shell commands alike, from the
 * snapshot taken before its prompt) and rewinds the conversation to before that prompt. Asks first,
 * showing the files; the user may pick files only or the conversation only. Files that changed after the
 * turn (the user's newer work) are named and asked about before they are overwritten. Again goes one more
 * turn back.
 */
import type { SlashCommand, SlashOutcome } from "./types.ts";
import { terminalSafe } from "../render/terminal_safe.ts";

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
    ctx.screen.print(`Undo the turn "${terminalSafe(plan.prompt.replace(/\s+/g, " ").slice(0, 70))}"`);
    if (changes === null) {
      ctx.screen.print("git is not installed: only the conversation can be rewound.", "yellow");
    } else if (changes.paths.length === 0) ctx.screen.print("No file changed since that prompt.", "dim");
    else ctx.screen.print(`Files to restore:\n${terminalSafe(changes.stat)}`);
    const choices = changes?.paths.length
      ? "[a]ll, [f]iles only, [c]onversation only, [n]o"
      : "[c]onversation, [n]o";
    const answer = (await ctx.ask(`${choices}? `))?.trim().toLowerCase() ?? "n";
    const files = Boolean(changes?.paths.length) && (answer === "a" || answer === "f");
    const talk = answer === "a" || answer === "c" || (answer === "y" && !changes?.paths.length);
    let keepChangedSince = false;
    if (files && plan.changedSince.length > 0) {
      const names = plan.changedSince.slice(0, 10).map((path) => terminalSafe(path)).join(", ");
      const more = plan.changedSince.length > 10 ? ` and ${plan.changedSince.length - 10} more` : "";
      ctx.screen.print(
        `Changed after that turn (by you, or something other than the turn): ${names}${more}`,
        "yellow",
      );
      const keep = (await ctx.ask("[o]verwrite them too, [k]eep them as they are now, [n]o undo? "))?.trim()
        .toLowerCase();
      if (keep !== "o" && keep !== "k") {
        ctx.screen.print("Nothing undone.", "dim");
        return "continue";
      }
      keepChangedSince = keep === "k";
    }
    if (!files && !talk) {
      ctx.screen.print("Nothing undone.", "dim");
      return "continue";
    }
    await ctx.session.undo(plan, { files, conversation: talk, keepChangedSince });
    const restored = changes!.paths.length - (keepChangedSince ? plan.changedSince.length : 0);
    const what = [
      files && `${restored} file(s) restored`,
      keepChangedSince && `${plan.changedSince.length} newer file(s) kept`,
      talk && "conversation rewound",
    ];
    ctx.screen.print(`Undone: ${what.filter(Boolean).join(", ")}.`, "green");
    return "continue";
  },
};
