/** `/hooks`: the hooks in force, where each comes from and how it runs, and the ones found but not run. */
import { describeHook } from "../../config/hook_settings.ts";
import type { SlashCommand } from "./types.ts";

/** Builds `/hooks`; `notes` say which hooks were found but do not run, and why. */
export function hooksCommand(notes: readonly string[] = []): SlashCommand {
  return {
    name: "/hooks",
    help: "list the hooks (commands run on events) and where each comes from",
    run: (ctx) => {
      const { screen } = ctx;
      const hooks = ctx.session.hooks.list();
      if (hooks.length === 0) {
        screen.print(
          'No hooks. Add them to .tern/local/settings.json (yours) as {"hooks": {"PreToolUse": [{"matcher": ' +
            '"execute_command", "hooks": [{"type": "command", "command": "..."}]}]}}.',
          "dim",
        );
      }
      for (const hook of hooks) {
        const how = hook.scope === "user"
          ? "yours: runs with your permissions, outside the sandbox"
          : "the project's: runs in the sandbox";
        screen.print(`  ${describeHook(hook)}`);
        screen.print(`    ${hook.file} (${how}) · time limit ${hook.timeoutMs / 1000} s`, "dim");
      }
      for (const note of notes) screen.print(`  ${note}`, "yellow");
      return "continue";
    },
  };
}
