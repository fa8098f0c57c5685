import { assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { Renderer } from "../../../src/cli/render/renderer.ts";
import type { Sink } from "../../../src/cli/render/sink.ts";
import { BUILTIN_COMMANDS, runSlashCommand, slashCommands } from "../../../src/cli/commands/table.ts";
import type { SlashCommand } from "../../../src/cli/commands/types.ts";
import { testSession } from "../../support/session.ts";
import { tempProject } from "../../support/temp_project.ts";

async function setup(commands: SlashCommand[] = BUILTIN_COMMANDS) {
  const project = await tempProject({});
  const parts: string[] = [];
  const sink: Sink = { write: (text) => parts.push(text), isTerminal: false };
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  const session = await testSession(project.root);
  const ctx = { session, screen };
  return {
    table: slashCommands(commands),
    ctx,
    output: () => parts.join(""),
    [Symbol.asyncDispose]: () => project[Symbol.asyncDispose](),
  };
}

Deno.test("runSlashCommand() runs commands by name or alias, and names /help for an unknown one", async () => {
  await using t = await setup();
  assertEquals(await runSlashCommand("/quit", t.table, t.ctx), "exit");
  assertEquals(await runSlashCommand("/exit", t.table, t.ctx), "exit");
  assertEquals(await runSlashCommand("/frob now", t.table, t.ctx), "continue");
  assertStringIncludes(t.output(), "Unknown command /frob. /help lists the commands.");
});

Deno.test("/clear replaces the conversation with a fresh one", async () => {
  await using t = await setup();
  const before = t.ctx.session.current.conversation;
  before.append({ kind: "user", text: "hi" });
  await runSlashCommand("/clear", t.table, t.ctx);
  assertEquals(t.ctx.session.current.conversation === before, false);
  assertEquals(t.ctx.session.current.conversation.entries.length, 0);
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
  await using t = await setup([...BUILTIN_COMMANDS, echo]);
  await runSlashCommand("/echo a  b", t.table, t.ctx);
  await runSlashCommand("/help", t.table, t.ctx);
  assertEquals(seen, [["a", "b"]]);
  assertMatch(t.output(), /\/echo +say it back/);
  assertMatch(t.output(), /\/clear +start a new conversation/);
});

Deno.test("an unknown command suggests the nearest name", async () => {
  await using t = await setup();
  await runSlashCommand("/cots", t.table, t.ctx);
  assertStringIncludes(t.output(), "Unknown command /cots. Did you mean /cost? /help lists the commands.");
});

Deno.test("/cost, /context, /permissions and /thinking report from the session's state", async () => {
  await using t = await setup();
  t.ctx.session.usage.handle({
    type: "usage",
    usage: { promptTokens: 400, completionTokens: 100, totalTokens: 500, cachedTokens: 300 },
    total: { promptTokens: 400, completionTokens: 100, totalTokens: 500 },
  });
  t.ctx.session.rules.add("allow", "execute_command(npm test*)");
  await runSlashCommand("/cost", t.table, t.ctx);
  await runSlashCommand("/context", t.table, t.ctx);
  await runSlashCommand("/permissions", t.table, t.ctx);
  await runSlashCommand("/thinking off", t.table, t.ctx);
  const text = t.output();
  assertStringIncludes(text, "input   400 tokens (300 from cache, 75%)");
  assertStringIncludes(text, "cost    $0.0001 (list prices per million: $0.28 in");
  assertMatch(
    text,
    /Context window: 128,000 tokens\. Next request: about [\d,]+ tokens \([\d,]+ bytes on the chat wire at 4\.0 bytes a token\)\./,
  );
  assertMatch(text, /system +[\d,]+ /);
  assertStringIncludes(text, "  execute_command(npm test*)");
  assertStringIncludes(text, "Reasoning is hidden.");
  assertEquals(t.ctx.screen.showsReasoning, false);
});

Deno.test("/expand prints the last tool output in full, escapes made visible", async () => {
  await using t = await setup();
  await runSlashCommand("/expand", t.table, t.ctx);
  t.ctx.screen.handle({
    type: "tool_result",
    id: "1",
    name: "execute_command",
    content: "line 1\n\x1b[31mline 2\n[exit code 0]",
    isError: false,
    details: { exitCode: 0 },
  });
  await runSlashCommand("/expand", t.table, t.ctx);
  assertStringIncludes(t.output(), "No tool has run yet.");
  assertStringIncludes(t.output(), "── execute_command output ──\nline 1\n␛[31mline 2\n[exit code 0]\n");
});
