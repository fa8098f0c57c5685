/**
 * `/model`: lists the provider presets, or switches model or provider mid-conversation. The conversation
 * goes on; what cannot cross wires (thinking signatures, encrypted reasoning) is dropped by the wires.
 */
import type { ModelRequest } from "../../config/provider_switch.ts";
import { findProvider, PROVIDERS } from "../../config/providers.ts";
import { describeModel } from "../../agent/model_setup.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";

/**
 * `PROVIDER`, `PROVIDER/MODEL` or `PROVIDER MODEL` switch provider (a model name may itself hold slashes);
 * one word that names no provider is a model on the current endpoint (`qwen/qwen3-coder` on OpenRouter too).
 */
export function parseModelArgs(args: string[]): ModelRequest | undefined {
  const words = args.filter((word) => word !== "");
  if (words.length === 0 || words.length > 2) return undefined;
  if (words.length === 2) return { provider: words[0], model: words[1] };
  const word = words[0];
  if (findProvider(word)) return { provider: word };
  const slash = word.indexOf("/");
  if (slash < 0) return { model: word };
  const [provider, model] = [word.slice(0, slash), word.slice(slash + 1)];
  if (!provider || !model) return undefined;
  return findProvider(provider) ? { provider, model } : { model: word };
}

/** `/model`: the presets and the model now, or a switch. */
export const modelCommand: SlashCommand = {
  name: "/model",
  help: "list the providers, or switch: /model MODEL (same endpoint) or /model PROVIDER[/MODEL]",
  run: async (ctx): Promise<SlashOutcome> => {
    const now = ctx.session.model;
    if (ctx.args.filter((word) => word !== "").length === 0) {
      ctx.screen.print(`Now: ${terminalSafe(describeModel(now))}. Switch with /model PROVIDER[/MODEL]:`);
      const width = Math.max(...PROVIDERS.map((preset) => preset.name.length));
      for (const preset of PROVIDERS) {
        const mark = preset.name === now.provider ? "*" : " ";
        const key = preset.keyEnv ?? "no key";
        ctx.screen.print(
          `${mark} ${preset.name.padEnd(width)}  ${preset.defaultModel} · ${preset.api} · ${key}`,
          "dim",
        );
      }
      ctx.screen.print("/model MODEL keeps the endpoint, wire and key and changes only the model.", "dim");
      return "continue";
    }
    const choice = parseModelArgs(ctx.args);
    if (choice === undefined) {
      ctx.screen.print(
        "Usage: /model MODEL, or /model PROVIDER[/MODEL], e.g. /model anthropic/claude-sonnet-4-5",
        "yellow",
      );
      return "continue";
    }
    try {
      const next = await ctx.session.switchModel(choice);
      const where = next.baseUrl === now.baseUrl ? "" : ` at ${next.baseUrl}`;
      ctx.screen.print(
        `Switched to ${terminalSafe(describeModel(next))}${where}; the conversation continues.`,
        "dim",
      );
    } catch (error) {
      ctx.screen.print(`Not switched: ${error instanceof Error ? error.message : String(error)}`, "yellow");
    }
    return "continue";
  },
};
