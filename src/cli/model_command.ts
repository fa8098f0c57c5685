/**
 * `/model`: lists the provider presets, or switches provider and model mid-conversation. The conversation
 * goes on; what cannot cross wires (thinking signatures, encrypted reasoning) is dropped by the wires.
 */
import type { ProviderPreset } from "../config/providers.ts";
import type { SlashCommand, SlashOutcome } from "./slash_commands.ts";

/** Who answers now, in the words the command shows. */
export interface ModelChoice {
  provider: string;
  label: string;
  model: string;
  api: string;
}

/** What /model needs from the REPL's owner: the presets, the current choice, and a way to switch. */
export interface ModelSwitcher {
  presets: readonly ProviderPreset[];
  current(): ModelChoice;
  /** Switches for the next task; throws an Error whose message is one line (e.g. a missing key). */
  switchTo(choice: { provider: string; model?: string }): Promise<ModelChoice>;
}

/** `PROVIDER`, `PROVIDER/MODEL` or `PROVIDER MODEL` (a model name may itself hold slashes). */
export function parseModelArgs(args: string[]): { provider: string; model?: string } | undefined {
  const words = args.filter((word) => word !== "");
  if (words.length === 0 || words.length > 2) return undefined;
  if (words.length === 2) return { provider: words[0], model: words[1] };
  const slash = words[0].indexOf("/");
  if (slash < 0) return { provider: words[0] };
  const [provider, model] = [words[0].slice(0, slash), words[0].slice(slash + 1)];
  return provider && model ? { provider, model } : undefined;
}

function describe(choice: ModelChoice): string {
  return `${choice.model} via ${choice.label} (${choice.api} wire)`;
}

/** The /model command over `switcher`. */
export function modelCommand(switcher: ModelSwitcher): SlashCommand {
  return {
    name: "/model",
    help: "list the providers, or switch: /model PROVIDER[/MODEL] (the conversation continues)",
    run: async (ctx): Promise<SlashOutcome> => {
      const now = switcher.current();
      if (ctx.args.filter((word) => word !== "").length === 0) {
        ctx.screen.print(`Now: ${describe(now)}. Switch with /model PROVIDER[/MODEL]:`);
        const width = Math.max(...switcher.presets.map((preset) => preset.name.length));
        for (const preset of switcher.presets) {
          const mark = preset.name === now.provider ? "*" : " ";
          const key = preset.keyEnv ?? "no key";
          ctx.screen.print(
            `${mark} ${preset.name.padEnd(width)}  ${preset.defaultModel} · ${preset.api} · ${key}`,
            "dim",
          );
        }
        return "continue";
      }
      const choice = parseModelArgs(ctx.args);
      if (choice === undefined) {
        ctx.screen.print("Usage: /model PROVIDER[/MODEL], e.g. /model anthropic/claude-sonnet-4-5", "yellow");
        return "continue";
      }
      try {
        const next = await switcher.switchTo(choice);
        ctx.screen.print(`Switched to ${describe(next)}; the conversation continues.`, "dim");
      } catch (error) {
        ctx.screen.print(`Not switched: ${error instanceof Error ? error.message : String(error)}`, "yellow");
      }
      return "continue";
    },
  };
}
