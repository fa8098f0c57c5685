/** /cost: tokens and the cost estimate of this conversation. */
import type { SlashCommand } from "./types.ts";
import { cacheHitPercent, dollars } from "../render/status_line.ts";
import { thousands as n } from "../render/task_words.ts";

/** Prints the session's tokens by kind, the cache-hit share and, where the model's prices are known, the cost. */
export const costCommand: SlashCommand = {
  name: "/cost",
  help: "tokens used and the estimated cost of this conversation",
  run: (ctx) => {
    const { total, calls, cost, info } = ctx.session.usage;
    const hit = cacheHitPercent(ctx.session.usage);
    ctx.screen.print(`${info.model}: ${calls} model call${calls === 1 ? "" : "s"}`);
    ctx.screen.print(
      `  input   ${n(total.promptTokens)} tokens (${n(total.cachedTokens ?? 0)} from cache${
        hit === undefined ? "" : `, ${hit}%`
      })`,
    );
    ctx.screen.print(
      `  output  ${n(total.completionTokens)} tokens (${n(total.reasoningTokens ?? 0)} reasoning)`,
    );
    if (info.price) {
      const { input, cachedInput, output } = info.price;
      ctx.screen.print(
        `  cost    ${dollars(cost)} (list prices per million: $${input} in, $${
          cachedInput ?? input
        } cached, $${output} out)`,
      );
    } else {
      const why = info.provider === "custom"
        ? "tern does not know what this custom endpoint charges for it"
        : "tern has no prices for this model";
      ctx.screen.print(`  cost    unknown price: ${why}`, "dim");
    }
    return "continue";
  },
};
