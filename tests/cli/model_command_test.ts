import { SessionStats } from "../../src/cli/session_stats.ts";
import { PermissionRules } from "../../src/agent/permission_rules.ts";
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { Conversation } from "../../src/agent/conversation.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import { Renderer, type Sink } from "../../src/cli/render.ts";
import { type ModelChoice, modelCommand, parseModelArgs } from "../../src/cli/model_command.ts";
import { runSlashCommand, slashCommands } from "../../src/cli/slash_commands.ts";
import { PROVIDERS } from "../../src/config/providers.ts";

function setup() {
  const parts: string[] = [];
  const sink: Sink = { write: (text) => parts.push(text), isTerminal: false };
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  const started = { conversation: new Conversation({ systemPrompt: "s" }), registry: createRegistry([]) };
  let current: ModelChoice = { provider: "deepseek", label: "DeepSeek", model: "deepseek-chat", api: "chat" };
  const switched: { provider: string; model?: string }[] = [];
  const command = modelCommand({
    presets: PROVIDERS,
    current: () => current,
    switchTo: (choice) => {
      switched.push(choice);
      if (choice.provider === "xai") return Promise.reject(new Error("no API key: set XAI_API_KEY"));
      current = {
        provider: choice.provider,
        label: "Anthropic",
        model: choice.model ?? "claude",
        api: "anthropic",
      };
      return Promise.resolve(current);
    },
  });
  const ctx = {
    current: started,
    replace: () => {},
    startConversation: () => started,
    screen,
    stats: new SessionStats({ model: "m" }),
    approvals: { policy: "ask" as const, rules: new PermissionRules() },
  };
  const run = (line: string) => runSlashCommand(line, slashCommands([command]), ctx);
  return { run, switched, output: () => parts.join(""), started };
}

Deno.test("parseModelArgs() reads PROVIDER, PROVIDER/MODEL and PROVIDER MODEL; a model may hold slashes", () => {
  assertEquals(parseModelArgs(["anthropic"]), { provider: "anthropic" });
  assertEquals(parseModelArgs(["openrouter/qwen/qwen3-coder"]), {
    provider: "openrouter",
    model: "qwen/qwen3-coder",
  });
  assertEquals(parseModelArgs(["openai", "gpt-5"]), { provider: "openai", model: "gpt-5" });
  assertEquals(parseModelArgs(["a", "b", "c"]), undefined);
  assertEquals(parseModelArgs(["/x"]), undefined);
  assertEquals(parseModelArgs(["x/"]), undefined);
});

Deno.test("/model alone lists every preset with its wire and marks the current one", async () => {
  const { run, output, switched } = setup();
  assertEquals(await run("/model"), "continue");
  assertStringIncludes(output(), "Now: deepseek-chat via DeepSeek (chat wire).");
  assertStringIncludes(output(), "* deepseek");
  for (const preset of PROVIDERS) assertStringIncludes(output(), preset.name);
  assertStringIncludes(output(), "anthropic");
  assertEquals(switched, []);
});

Deno.test("/model PROVIDER/MODEL switches and says the conversation continues", async () => {
  const { run, output, switched, started } = setup();
  started.conversation.append({ kind: "user", text: "earlier" });
  assertEquals(await run("/model anthropic/claude-x"), "continue");
  assertEquals(switched, [{ provider: "anthropic", model: "claude-x" }]);
  assertStringIncludes(
    output(),
    "Switched to claude-x via Anthropic (anthropic wire); the conversation continues.",
  );
  assertEquals(started.conversation.entries.length, 1);
});

Deno.test("/model with a bad argument or a failed switch says why in one line and keeps the model", async () => {
  const { run, output } = setup();
  await run("/model a b c");
  assertStringIncludes(output(), "Usage: /model PROVIDER[/MODEL]");
  await run("/model xai");
  assertStringIncludes(output(), "Not switched: no API key: set XAI_API_KEY");
  await run("/model");
  assertStringIncludes(output(), "Now: deepseek-chat via DeepSeek");
});
