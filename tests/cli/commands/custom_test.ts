import { assertEquals } from "../../support/assert.ts";
import { customCommands } from "../../../src/cli/commands/custom.ts";
import type { FoundCommands } from "../../../src/agent/project/custom_commands.ts";

const command = (name: string, notes: string[] = []) => ({
  name,
  description: `${name} it`,
  template: `Do ${name}.`,
  source: `.tern/commands/${name}.md`,
  notes,
});

Deno.test("customCommands() refuses a built-in's name or alias, keeps the rest, and says what it ignored", () => {
  const found: FoundCommands = {
    commands: [command("quit"), command("review", ["model is not honoured"]), command("help")],
    problems: [".claude/commands/x y.md: bad name"],
    userDir: { shown: "~/.config/tern/commands", readable: false },
  };
  const built = customCommands(found, ["/help", "/exit", "/quit", "/clear"]);
  assertEquals(built.commands.map((c) => [c.name, c.help, c.custom]), [
    ["/review", "review it", { source: ".tern/commands/review.md" }],
  ]);
  assertEquals(built.skipped, [
    "skipped .claude/commands/x y.md: bad name",
    "skipped .tern/commands/quit.md: /quit is a built-in command, which a file never replaces",
    "skipped .tern/commands/help.md: /help is a built-in command, which a file never replaces",
  ]);
  assertEquals(built.notes, [
    ".tern/commands/review.md: model is not honoured",
    "~/.config/tern/commands: not read (tern's permission flags let it read only this project)",
  ]);
});
