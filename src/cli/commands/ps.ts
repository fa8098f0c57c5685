/** `/ps`: the session's background processes (execute_command with `background: true`); `/ps kill ID`. */
import type { BackgroundInfo } from "../../tools/shell/background.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";

/** One process in a line: id, state, age, unread output, command. */
function line(info: BackgroundInfo): string {
  const seconds = Math.round((Date.now() - info.startedAt) / 1000);
  const state = info.state === "exited" ? `exited (${info.code})` : info.state;
  const unread = info.unread > 0 ? ` · ${info.unread} chars unread` : "";
  const sandbox = info.sandboxed ? "" : " · unconfined";
  return `  ${info.id}  ${state} · ${seconds} s${unread}${sandbox}  ${info.command.split("\n")[0]}`;
}

/** `/ps` lists the background processes; `/ps kill ID` stops one and its whole group. */
export const psCommand: SlashCommand = {
  name: "/ps",
  help: "list the background processes the model started (/ps kill ID stops one)",
  run: async (ctx): Promise<SlashOutcome> => {
    const processes = ctx.session.background;
    if (ctx.args[0] === "kill" && ctx.args[1]) {
      const info = await processes.kill(ctx.args[1]);
      ctx.screen.print(info ? `${info.id} stopped.` : `No background process ${ctx.args[1]}.`, "dim");
      return "continue";
    }
    const list = processes.list();
    if (list.length === 0) ctx.screen.print("No background processes in this session.", "dim");
    for (const info of list) ctx.screen.print(line(info));
    if (list.some((info) => info.state === "running")) {
      ctx.screen.print("They are killed when tern exits.", "dim");
    }
    return "continue";
  },
};
