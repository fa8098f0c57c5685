/** `/rename TEXT` (name the session, for `tern -r TEXT`) and `/fork [N]` (continue a copy of it). */
import { loadSession } from "../../agent/log/session_load.ts";
import { SessionError } from "../../agent/log/session_file.ts";
import { forkSession } from "../../agent/log/session_fork.ts";
import { checkedName } from "../../agent/log/session_names.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";

/** `/rename TEXT`: names this session; `tern -r TEXT` and `/resume TEXT` then find it by that name. */
export const renameCommand: SlashCommand = {
  name: "/rename",
  help: "name this session, e.g. /rename login fix (then tern -r 'login fix' continues it)",
  run: (ctx): SlashOutcome => {
    const id = ctx.session.sessionId;
    if (id === undefined) {
      ctx.screen.print("This session is not saved (--no-session): there is nothing to name.", "yellow");
      return "continue";
    }
    const checked = checkedName(ctx.text ?? ctx.args.join(" "));
    if ("problem" in checked) {
      ctx.screen.print(`Not renamed: ${checked.problem}.`, "yellow");
      return "continue";
    }
    try {
      ctx.session.rename(checked.name);
      ctx.screen.print(`Session ${id} is now named "${terminalSafe(checked.name)}".`, "dim");
    } catch (error) {
      ctx.screen.print(`Could not save the name: ${(error as Error).message}`, "yellow");
    }
    return "continue";
  },
};

/** `/fork [N]`: continues in a copy of this session (cut after its N-th prompt), the original left as it is. */
export const forkCommand: SlashCommand = {
  name: "/fork",
  help: "continue in a copy of this session (/fork N: as it was after prompt N); the original stays as it is",
  run: async (ctx): Promise<SlashOutcome> => {
    const id = ctx.session.sessionId;
    const saved = id !== undefined && ctx.session.transcriptPath !== undefined;
    if (!saved) {
      ctx.screen.print("Nothing to fork yet: the session is saved from its first prompt on.", "yellow");
      return "continue";
    }
    const prompts = ctx.args[0] === undefined ? undefined : Number(ctx.args[0]);
    try {
      const original = await loadSession(ctx.session.root, id);
      const copy = forkSession(ctx.session.root, original, { prompts });
      await ctx.session.resume(copy);
      const at = prompts === undefined ? "" : ` as it was after prompt ${prompts}`;
      ctx.screen.print(`Forked session ${id}${at}: this is now session ${copy.header.id}.`, "dim");
      ctx.screen.print(`The original is left as it was (/resume ${id} goes back to it).`, "dim");
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      ctx.screen.print(error.message, "yellow");
    }
    return "continue";
  },
};
