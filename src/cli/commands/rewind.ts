/**
 * `/rewind [N]`: go back to before any earlier turn of the conversation, not only the last (`/undo`): the
 * turns are listed oldest first, one is picked, then the same question as /undo's (files, conversation,
 * both), and the files changed outside the turns (the user's own edits) are named before they are
 * overwritten.
 */
import type { SlashCommand, SlashOutcome } from "./types.ts";
import { offerUndo, shownPrompt } from "./undo.ts";

/** `/rewind` lists the turns and asks which; `/rewind N` goes back to before turn N. */
export const rewindCommand: SlashCommand = {
  name: "/rewind",
  help:
    "go back to before an earlier turn (/rewind lists them, /rewind N picks one): files, conversation or both",
  run: async (ctx): Promise<SlashOutcome> => {
    const targets = ctx.session.rewindTargets();
    if (targets.length === 0 || !ctx.ask) {
      ctx.screen.print("Nothing to rewind in this conversation.");
      return "continue";
    }
    let answer: string | undefined = ctx.args[0];
    if (answer === undefined) {
      const choices = targets.map((target, i) => ({
        name: `"${shownPrompt(target.prompt)}"`,
        value: String(i + 1),
      }));
      if (!ctx.choose) choices.forEach((choice, i) => ctx.screen.print(`${i + 1}. ${choice.name}`));
      answer = ctx.choose
        ? await ctx.choose("Rewind to before which turn? (Esc: none)", choices)
        : (await ctx.ask(`Rewind to before which turn (1-${targets.length})? `))?.trim();
    }
    const n = Number(answer);
    if (!Number.isSafeInteger(n) || n < 1 || n > targets.length) {
      ctx.screen.print(
        answer ? `There is no turn ${answer}: pick 1 to ${targets.length}.` : "Nothing rewound.",
        "dim",
      );
      return "continue";
    }
    const plan = await ctx.session.undoPlan(targets[n - 1].index);
    if (plan === null) return "continue";
    const back = targets.length - n + 1;
    ctx.screen.print(`Rewind to before turn ${n} "${shownPrompt(plan.prompt)}" (${back} turn(s) back)`);
    await offerUndo(ctx, plan);
    return "continue";
  },
};
