/** `/compact [focus]` (summarise now) and `/context` (where the context window goes). */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Entry } from "../../agent/log/conversation.ts";
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

/**
 * `/context`: the next request's estimate as the wire in use will send it, where it goes (system prompt,
 * project memory, tool schemas, conversation), and what the next compaction would drop.
 */
export const contextCommand: SlashCommand = {
  name: "/context",
  help: "show the next request's size against the context window, and what compaction would drop",
  run: (ctx): SlashOutcome => {
    const view = ctx.session.context();
    const { window, parts } = view;
    const n = (count: number) => count.toLocaleString("en-US");
    const pct = (count: number) => `${(100 * count / window).toFixed(1).padStart(5)} %`;
    const rate = view.bytesPerToken.toFixed(1);
    const how = view.calibrated
      ? `${rate} bytes a token, from the provider's usage`
      : `${rate} bytes a token`;
    ctx.screen.print(
      `Context window: ${n(window)} tokens. Next request: about ${n(view.size.tokens)} tokens ` +
        `(${n(view.size.bytes)} bytes on the ${ctx.session.model.api} wire at ${how}).`,
    );
    const memory = Math.min(
      parts.system,
      Math.ceil((ctx.session.memory?.text.length ?? 0) / view.bytesPerToken),
    );
    const rows: [string, number][] = [
      ["system", parts.system - memory],
      ["memory", memory],
      ["tools", parts.tools],
      ["history", parts.history],
      ["free", window - view.size.tokens],
    ];
    for (const [name, count] of rows) {
      ctx.screen.print(`  ${name.padEnd(8)} ${n(count).padStart(9)}  ${pct(count)}`);
    }
    for (const line of compactionLines(view)) ctx.screen.print(line, "dim");
    for (const line of modelHistory(ctx.session.entries, ctx.session.firstModel)) {
      ctx.screen.print(line, "dim");
    }
    return "continue";
  },
};

/** What the next compaction would take, in words. */
function compactionLines(view: ReturnType<AgentSession["context"]>): string[] {
  const n = (count: number) => count.toLocaleString("en-US");
  const drop = view.drop.outputs > 0
    ? `drop ${n(view.drop.outputs)} old tool output(s), oldest first (about ${n(view.drop.tokens)} tokens)`
    : "";
  const summary = view.summary
    ? `summarise ${n(view.summary.entries)} older entries (about ${n(view.summary.tokens)} tokens)`
    : "";
  const steps = [drop, summary].filter(Boolean).join(", then if still needed ");
  const when = view.now
    ? "The next request is past 80 % of the window and compacts first"
    : `Compaction starts past ${n(Math.floor(view.limit))} tokens (80 %)`;
  if (steps === "") return [`${when}; nothing is old enough to drop or summarise yet.`];
  return [`${when}: it would ${steps}.`];
}

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
