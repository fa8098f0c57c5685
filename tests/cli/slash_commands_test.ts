import { assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { Conversation } from "../../src/agent/conversation.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import { Renderer, type Sink } from "../../src/cli/render.ts";
import {
  BUILTIN_COMMANDS,
  runSlashCommand,
  type SlashCommand,
  slashCommands,
} from "../../src/cli/slash_commands.ts";
import type { Started } from "../../src/cli/repl.ts";
import { SessionStats } from "../../src/cli/session_stats.ts";
import { PermissionRules } from "../../src/agent/permission_rules.ts";

function setup(commands: SlashCommand[] = BUILTIN_COMMANDS) {
  const parts: string[] = [];
  const sink: Sink = { write: (text) => parts.push(text), isTerminal: false };
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  const start = (): Started => ({
    conversation: new Conversation({ systemPrompt: "s" }),
    registry: createRegistry([]),
  });
  const state = { current: start() };
  const ctx = {
    get current() {
      return state.current;
    },
    replace: (next: Started) => void (state.current = next),
    startConversation: start,
    screen,
    stats: new SessionStats({ model: "m", contextWindow: 1000 }),
    approvals: { policy: "ask" as const, rules: new PermissionRules() },
  };
  return { table: slashCommands(commands), ctx, state, output: () => parts.join("") };
}

Deno.test("runSlashCommand() runs commands by name or alias, and names /help for an unknown one", async () => {
  const { table, ctx, output } = setup();
  assertEquals(await runSlashCommand("/quit", table, ctx), "exit");
  assertEquals(await runSlashCommand("/exit", table, ctx), "exit");
  assertEquals(await runSlashCommand("/frob now", table, ctx), "continue");
  assertStringIncludes(output(), "Unknown command /frob. /help lists the commands.");
});

Deno.test("/clear replaces the conversation with a fresh one", async () => {
  const { table, ctx, state } = setup();
  const before = state.current.conversation;
  before.append({ kind: "user", text: "hi" });
  await runSlashCommand("/clear", table, ctx);
  assertEquals(state.current.conversation === before, false);
  assertEquals(state.current.conversation.entries.length, 0);
});

Deno.test("a command added to the table gets its words and shows in /help", async () => {
  const seen: string[][] = [];
  const echo: SlashCommand = {
    name: "/echo",
    help: "say it back",
    run: (ctx) => {
      seen.push(ctx.args);
      return "continue";
    },
  };
  const { table, ctx, output } = setup([...BUILTIN_COMMANDS, echo]);
  await runSlashCommand("/echo a  b", table, ctx);
  await runSlashCommand("/help", table, ctx);
  assertEquals(seen, [["a", "b"]]);
  assertMatch(output(), /\/echo +say it back/);
  assertMatch(output(), /\/clear +start a new conversation/);
});

Deno.test("an unknown command suggests the nearest name", async () => {
  const { table, ctx, output } = setup();
  await runSlashCommand("/cots", table, ctx);
  assertStringIncludes(output(), "Unknown command /cots. Did you mean /cost? /help lists the commands.");
});

Deno.test("/cost, /context, /permissions and /thinking report from the session's state", async () => {
  const { table, ctx, output } = setup();
  ctx.stats.handle({
    type: "usage",
    usage: { promptTokens: 400, completionTokens: 100, totalTokens: 500, cachedTokens: 300 },
    total: { promptTokens: 400, completionTokens: 100, totalTokens: 500 },
  });
  ctx.approvals.rules.add("allow", "execute_command(npm test*)");
  await runSlashCommand("/cost", table, ctx);
  await runSlashCommand("/context", table, ctx);
  await runSlashCommand("/permissions", table, ctx);
  await runSlashCommand("/thinking off", table, ctx);
  const text = output();
  assertStringIncludes(text, "input   400 tokens (300 from cache, 75%)");
  assertStringIncludes(text, "cost    unknown");
  assertStringIncludes(text, "Context window: 128000 tokens (estimates: characters / 4)");
  assertMatch(text, /system +\d+/);
  assertStringIncludes(text, "  execute_command(npm test*)");
  assertStringIncludes(text, "Reasoning is hidden.");
  assertEquals(ctx.screen.showsReasoning, false);
});

Deno.test("/expand prints the last tool output in full, escapes made visible", async () => {
  const { table, ctx, output } = setup();
  await runSlashCommand("/expand", table, ctx);
  ctx.screen.handle({
    type: "tool_result",
    id: "1",
    name: "execute_command",
    content: "line 1\n\x1b[31mline 2\n[exit code 0]",
    isError: false,
    details: { exitCode: 0 },
  });
  await runSlashCommand("/expand", table, ctx);
  assertStringIncludes(output(), "No tool has run yet.");
  assertStringIncludes(output(), "── execute_command output ──\nline 1\n␛[31mline 2\n[exit code 0]\n");
});
