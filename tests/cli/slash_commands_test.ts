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
