/** /thinking: hide or show the model's reasoning (grey text above the answer). */
import type { SlashCommand } from "./types.ts";

/** `/thinking` toggles; `/thinking on|off` sets. */
export const thinkingCommand: SlashCommand = {
  name: "/thinking",
  help: "hide or show the model's reasoning (/thinking on|off)",
  run: (ctx) => {
    const word = ctx.args[0]?.toLowerCase();
    const show = word === "on" ? true : word === "off" ? false : !ctx.screen.showsReasoning;
    ctx.screen.setShowReasoning(show);
    ctx.screen.print(show ? "Reasoning is shown." : "Reasoning is hidden.", "dim");
    return "continue";
  },
};
