/** /permissions: the approval mode, this session's "don't ask again" tools, and the project's rules. */
import type { SlashCommand } from "./types.ts";
import { terminalSafe } from "../render/terminal_safe.ts";

/** Lists what runs without asking and what is refused. */
export const permissionsCommand: SlashCommand = {
  name: "/permissions",
  help:
    "the approval mode and the permission rules (.tern/settings.json, .claude/settings*.json, .tern/local/settings.json)",
  run: (ctx) => {
    const { mode, rules } = ctx.session;
    ctx.screen.print(`approval mode: ${mode} (Shift+Tab at the prompt cycles ask → edits → plan)`);
    const session = ctx.session.approvals;
    ctx.screen.print(`this session, not asked again: ${session.length === 0 ? "none" : session.join(", ")}`);
    const { allow, deny, ask } = rules.list();
    ctx.screen.print(`allow rules: ${allow.length === 0 ? "none" : ""}`);
    for (const rule of allow) ctx.screen.print(`  ${terminalSafe(rule)}`);
    ctx.screen.print(`deny rules: ${deny.length === 0 ? "none" : ""}`);
    for (const rule of deny) ctx.screen.print(`  ${terminalSafe(rule)}`);
    if (ask.length > 0) ctx.screen.print("ask rules (asked every time):");
    for (const rule of ask) ctx.screen.print(`  ${terminalSafe(rule)}`);
    ctx.screen.print("Rules never allow a protected path or a network request without asking.", "dim");
    return "continue";
  },
};
