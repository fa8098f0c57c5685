/** `/compact [focus]` (summarise now) and `/context` (where the context window goes). */
import { estimateTokens } from "../../agent/compact.ts";
import { summariseConversation } from "../../agent/summarise.ts";
import type { SlashCommand, SlashOutcome } from "../slash_commands.ts";

/** `/compact [focus]`: condense the older turns into a summary now. */
export const compactCommand: SlashCommand = {
  name: "/compact",
  help: "summarise the older part of the conversation now (/compact FOCUS says what to keep)",
  run: async (ctx): Promise<SlashOutcome> => {
    const loop = ctx.app?.loop;
    if (!loop) {
      ctx.screen.print("This command needs a full tern run.");
      return "continue";
    }
    const controller = new AbortController();
    const cancel = () => controller.abort();
    Deno.addSignalListener("SIGINT", cancel);
    try {
      const done = await summariseConversation(ctx.current.conversation, {
        client: loop.client,
        model: loop.model,
        signal: controller.signal,
        contextWindow: loop.contextWindow ?? 128_000,
        focus: ctx.args.join(" ") || undefined,
        keepFraction: 0, // on demand: keep only the latest step verbatim
      });
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
    const { conversation, registry } = ctx.current;
    const window = ctx.app?.loop.contextWindow ?? 128_000;
    const [system, ...history] = conversation.messages();
    const memoryText = ctx.app?.starter.memory?.text ?? "";
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
    return "continue";
  },
};
