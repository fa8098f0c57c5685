/** `/compact [focus]` (summarise now) and `/context` (where the context window goes). */
import { estimateTokens } from "../../agent/compact.ts";
import type { Entry } from "../../agent/conversation.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";

/** `/compact [focus]`: condense the older turns into a summary now. */
export const compactCommand: SlashCommand = {
  name: "/compact",
  help: "summarise the older part of the conversation now (/compact FOCUS says what to keep)",
  run: async (ctx): Promise<SlashOutcome> => {
    const controller = new AbortController();
    const cancel = () => controller.abort();
    Deno.addSignalListener("SIGINT", cancel);
    try {
      const done = await ctx.session.compact(ctx.args.join(" ") || undefined, controller.signal);
      ctx.screen.print(
        done === null
          ? "Nothing to summarise yet: the conversation is only its latest step."
          : `Summarised ${done.summarised} older entries (about ${done.tokensBefore} → ${done.tokensAfter} tokens).`,
        "dim",
      );
    } catch (error) {
      ctx.screen.print(
        `The summary failed: ${error instanceof Error ? error.message : String(error)}`,
        "red",
      );
    } finally {
      Deno.removeSignalListener("SIGINT", cancel);
    }
    return "continue";
  },
};

/** `/context`: tokens (estimated) taken by the system prompt, project memory, tool schemas and history. */
export const contextCommand: SlashCommand = {
  name: "/context",
  help: "show where the context window goes (system, memory, tools, history, free)",
  run: (ctx): SlashOutcome => {
    const { conversation, registry } = ctx.session.current;
    const window = ctx.session.model.contextWindow;
    const [system, ...history] = conversation.messages();
    const memoryText = ctx.session.memory?.text ?? "";
    const memory = Math.ceil(memoryText.length / 4);
    const tools = Math.ceil(JSON.stringify(registry.specs()).length / 4);
    const systemTokens = estimateTokens([system]) - memory;
    const historyTokens = estimateTokens(history);
    const free = window - systemTokens - memory - tools - historyTokens;
    const pct = (n: number) => `${(100 * n / window).toFixed(1).padStart(5)} %`;
    ctx.screen.print(`Context window: ${window} tokens (estimates: characters / 4)`);
    for (
      const [name, n] of [["system", systemTokens], ["memory", memory], ["tools", tools], [
        "history",
        historyTokens,
      ], ["free", free]] as const
    ) ctx.screen.print(`  ${name.padEnd(8)} ${String(n).padStart(8)}  ${pct(n)}`);
    for (const line of modelHistory(conversation.entries, ctx.session.firstModel)) {
      ctx.screen.print(line, "dim");
    }
    return "continue";
  },
};

/** Which model answered which prompts, when the conversation changed model: "prompts 1-3: deepseek-chat via DeepSeek". */
function modelHistory(entries: readonly Entry[], first: string): string[] {
  if (!entries.some((entry) => entry.kind === "model_change")) return [];
  const spans: { from: number; who: string }[] = [{ from: 1, who: terminalSafe(first) }];
  let prompts = 0;
  for (const entry of entries) {
    if (entry.kind === "user" && entry.from !== "tern") prompts++;
    if (entry.kind !== "model_change") continue;
    const who = `${terminalSafe(entry.model)} via ${terminalSafe(entry.endpoint)}`;
    if (spans.at(-1)!.from === prompts + 1) spans.at(-1)!.who = who;
    else spans.push({ from: prompts + 1, who });
  }
  return [
    "Models in this conversation:",
    ...spans.map((span, i) => {
      const to = i + 1 < spans.length ? spans[i + 1].from - 1 : undefined;
      const range = to === undefined
        ? `${span.from} on`
        : to === span.from
        ? `${span.from}`
        : `${span.from}-${to}`;
      return `  prompts ${range}: ${span.who}`;
    }),
  ];
}
