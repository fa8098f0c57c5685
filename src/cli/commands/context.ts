/** /context: how full the model's context window is, and what fills it. */
import type { Message } from "../../llm/types.ts";
import type { SlashCommand } from "../slash_commands.ts";
import { compact } from "../session_stats.ts";

/** About four characters a token: the split by kind is an estimate, the total is the provider's count. */
const CHARS_PER_TOKEN = 4;

function size(message: Message): number {
  const content = (message as { content?: unknown }).content;
  let chars = typeof content === "string" ? content.length : JSON.stringify(content ?? "").length;
  const calls = (message as { toolCalls?: unknown[] }).toolCalls;
  if (calls) chars += JSON.stringify(calls).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Prints the window, the last request's size, and an estimate per kind of message. */
export const contextCommand: SlashCommand = {
  name: "/context",
  help: "how much of the context window is used, and by what",
  run: (ctx) => {
    const { contextWindow } = ctx.stats.info;
    const used = ctx.stats.contextTokens;
    const percent = contextWindow
      ? ` (${Math.round((used / contextWindow) * 100)}% of ${compact(contextWindow)})`
      : "";
    ctx.screen.print(`context: ${compact(used)} tokens in the last request and its answer${percent}`);
    const byRole = new Map<string, { count: number; tokens: number }>();
    for (const message of ctx.current.conversation.messages()) {
      const entry = byRole.get(message.role) ?? { count: 0, tokens: 0 };
      entry.count++;
      entry.tokens += size(message);
      byRole.set(message.role, entry);
    }
    const names: Record<string, string> = {
      system: "system prompt",
      user: "your messages",
      assistant: "model turns",
      tool: "tool results",
    };
    for (const [role, { count, tokens }] of byRole) {
      ctx.screen.print(`  ${(names[role] ?? role).padEnd(14)} ~${compact(tokens)} tokens in ${count}`);
    }
    ctx.screen.print("Old tool outputs are dropped first when the window fills.", "dim");
    return "continue";
  },
};
