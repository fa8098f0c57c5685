import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { Renderer } from "../../../src/cli/render/renderer.ts";
import type { Sink } from "../../../src/cli/render/sink.ts";
import { modelCommand, parseModelArgs } from "../../../src/cli/commands/model.ts";
import { runSlashCommand, slashCommands } from "../../../src/cli/commands/table.ts";
import { PROVIDERS } from "../../../src/config/providers.ts";
import { testSession } from "../../support/session.ts";
import { tempProject } from "../../support/temp_project.ts";

async function setup(env: Record<string, string> = {}) {
  const project = await tempProject({});
  const parts: string[] = [];
  const sink: Sink = { write: (text) => parts.push(text), isTerminal: false };
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  const session = await testSession(project.root, { env });
  const run = (line: string) => runSlashCommand(line, slashCommands([modelCommand]), { session, screen });
  return {
    run,
    session,
    screen,
    output: () => parts.join(""),
    [Symbol.asyncDispose]: () => project[Symbol.asyncDispose](),
  };
}

Deno.test("parseModelArgs() reads PROVIDER, PROVIDER/MODEL and PROVIDER MODEL; any other word is a model", () => {
  assertEquals(parseModelArgs(["anthropic"]), { provider: "anthropic" });
  assertEquals(parseModelArgs(["openrouter/qwen/qwen3-coder"]), {
    provider: "openrouter",
    model: "qwen/qwen3-coder",
  });
  assertEquals(parseModelArgs(["openai", "gpt-5"]), { provider: "openai", model: "gpt-5" });
  assertEquals(parseModelArgs(["mock-model"]), { model: "mock-model" });
  assertEquals(parseModelArgs(["moonshotai/kimi-k2"]), { model: "moonshotai/kimi-k2" });
  assertEquals(parseModelArgs(["a", "b", "c"]), undefined);
  assertEquals(parseModelArgs(["/x"]), undefined);
  assertEquals(parseModelArgs(["x/"]), undefined);
});

Deno.test("/model alone lists every preset with its wire and marks the current one", async () => {
  await using t = await setup();
  assertEquals(await t.run("/model"), "continue");
  assertStringIncludes(t.output(), "Now: deepseek-chat via DeepSeek (chat wire).");
  assertStringIncludes(t.output(), "* deepseek");
  for (const preset of PROVIDERS) assertStringIncludes(t.output(), preset.name);
});

Deno.test("/model PROVIDER/MODEL switches, says where it goes, and logs a model_change entry", async () => {
  await using t = await setup({ ANTHROPIC_API_KEY: "sk-ant" });
  t.session.current.conversation.append({ kind: "user", text: "earlier" });
  assertEquals(await t.run("/model anthropic/claude-x"), "continue");
  assertStringIncludes(
    t.output(),
    "Switched to claude-x via Anthropic (anthropic wire) at https://api.anthropic.com; the conversation continues.",
  );
  assertEquals(t.session.current.conversation.entries, [
    { kind: "user", text: "earlier" },
    {
      kind: "model_change",
      provider: "anthropic",
      model: "claude-x",
      endpoint: "Anthropic",
      api: "anthropic",
    },
  ]);
  assertEquals(t.session.usage.info.model, "claude-x");
});

Deno.test("/model MODEL keeps the endpoint, the wire and the key", async () => {
  await using t = await setup();
  await t.run("/model mock-model");
  assertStringIncludes(
    t.output(),
    "Switched to mock-model via DeepSeek (chat wire); the conversation continues.",
  );
  assertEquals([t.session.model.baseUrl, t.session.model.api], ["http://127.0.0.1:9", "chat"]);
});

Deno.test("/model with a bad argument or a failed switch says why in one line and keeps the model", async () => {
  await using t = await setup();
  await t.run("/model a b c");
  assertStringIncludes(t.output(), "Usage: /model MODEL, or /model PROVIDER[/MODEL]");
  await t.run("/model xai");
  assertStringIncludes(t.output(), "Not switched: no API key for xAI: set XAI_API_KEY");
  await t.run("/model");
  assertStringIncludes(t.output(), "Now: deepseek-chat via DeepSeek");
});

Deno.test("/context says which model answered which prompts once the conversation changed model", async () => {
  await using t = await setup({ ANTHROPIC_API_KEY: "sk-ant" });
  const conversation = t.session.current.conversation;
  conversation.append({ kind: "user", text: "one" });
  conversation.append({ kind: "user", text: "two" });
  await t.run("/model anthropic/claude-x");
  conversation.append({ kind: "user", text: "three" });
  await runSlashCommand("/context", slashCommands(), { session: t.session, screen: t.screen });
  assertStringIncludes(
    t.output(),
    "Models in this conversation:\n  prompts 1-2: deepseek-chat via DeepSeek\n  prompts 3 on: claude-x via Anthropic\n",
  );
});
