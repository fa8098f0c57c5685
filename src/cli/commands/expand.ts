/** /expand: the last tool output in full, as the model read it (tool lines show one line of it). */
import type { SlashCommand } from "./types.ts";
import { terminalSafe } from "../render/terminal_safe.ts";

/** Prints the last tool result's text, control characters made visible; names the saved file if any. */
export const expandCommand: SlashCommand = {
  name: "/expand",
  help: "print the last tool output in full",
  run: (ctx) => {
    const last = ctx.screen.lastResult;
    if (!last) {
      ctx.screen.print("No tool has run yet.", "dim");
      return "continue";
    }
    ctx.screen.print(`── ${last.name} output ──`, "dim");
    // Tabs and newlines are layout, everything else from a tool is made visible.
    ctx.screen.print(
      last.content.split("\n").map((line) => terminalSafe(line.replaceAll("\t", "    "))).join("\n"),
    );
    if (last.spilledTo) {
      ctx.screen.print(`(the model saw a part; the whole output is in ${last.spilledTo})`, "dim");
    }
    return "continue";
  },
};
