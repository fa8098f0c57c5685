import { assertEquals } from "../../support/assert.ts";
import {
  discoverCommands,
  expandCommand,
  parseCommand,
  splitArguments,
  userCommandDir,
} from "../../../src/agent/project/custom_commands.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("expandCommand() puts in $ARGUMENTS and $1…$9, empty when missing, and never reads $ patterns", () => {
  assertEquals(
    expandCommand("Fix #$1 ($2) [$3]: $ARGUMENTS", `42 "high prio"`),
    `Fix #42 (high prio) []: 42 "high prio"`,
  );
  // What the user typed goes in as is: "$&" and "$1" in the arguments are not replacement patterns.
  assertEquals(expandCommand("Say $ARGUMENTS and $1", "$& $1"), "Say $& $1 and $&");
  assertEquals(expandCommand("$9$1", "a b c d e f g h i"), "ia");
});

Deno.test("expandCommand() appends the arguments to a body without placeholders, and adds nothing without", () => {
  assertEquals(expandCommand("Run the tests.", "only unit"), "Run the tests.\n\nARGUMENTS: only unit");
  assertEquals(expandCommand("Run the tests.", "  "), "Run the tests.");
});

Deno.test("splitArguments() groups quoted words", () => {
  assertEquals(splitArguments(`a "b c" 'd e' f`), ["a", "b c", "d e", "f"]);
});

Deno.test("parseCommand() reads description and argument-hint, else the first line, and notes what it ignores", () => {
  const text =
    "---\ndescription: Fix an issue\nargument-hint: [number]\nmodel: opus\n---\nFix #$1.\n!`git log`\n";
  assertEquals(parseCommand({ source: ".tern/commands/fix-issue.md", text }), {
    name: "fix-issue",
    description: "Fix an issue",
    argumentHint: "[number]",
    template: "Fix #$1.\n!`git log`",
    source: ".tern/commands/fix-issue.md",
    notes: [
      "model is not honoured: the session's model runs it",
      "!`…` lines are not run: the model reads them as written",
    ],
  });
  const plain = parseCommand({ source: "x/summary.md", text: "# Summarise\nIn five lines." });
  assertEquals(typeof plain === "object" && [plain.description, plain.template], [
    "Summarise",
    "# Summarise\nIn five lines.",
  ]);
  assertEquals(
    parseCommand({ source: "x/bad name.md", text: "x" }),
    "the file name must be letters, digits, - and _ (it is the command)",
  );
  assertEquals(
    parseCommand({ source: "x/empty.md", text: "---\ndescription: d\n---\n" }),
    "the prompt (the file's body) is empty",
  );
});

Deno.test("discoverCommands() reads .tern/commands before .claude/commands, skips links, then the user's folder", async () => {
  await using project = await tempProject({
    ".tern/commands/review.md": "Review it.",
    ".claude/commands/review.md": "Shadowed.",
    ".claude/commands/test.md": "Run the tests.",
    "elsewhere.md": "Linked.",
  });
  await Deno.symlink(`${project.root}/elsewhere.md`, `${project.root}/.tern/commands/linked.md`);
  const home = `${project.outside}/config`;
  await Deno.mkdir(`${home}/tern/commands`, { recursive: true });
  await Deno.writeTextFile(`${home}/tern/commands/mine.md`, "Mine.");
  await Deno.writeTextFile(`${home}/tern/commands/test.md`, "The user's test.");
  const found = await discoverCommands(project.root, { userDir: userCommandDir({ XDG_CONFIG_HOME: home }) });
  assertEquals(found.commands.map((command) => [command.name, command.source]), [
    ["mine", `${home}/tern/commands/mine.md`],
    ["review", ".tern/commands/review.md"],
    ["test", ".claude/commands/test.md"],
  ]);
  assertEquals(found.problems, [
    ".tern/commands/linked.md: not a regular file",
    ".claude/commands/review.md: /review is already defined by .tern/commands/review.md",
    `${home}/tern/commands/test.md: /test is already defined by .claude/commands/test.md`,
  ]);
  assertEquals(found.userDir, { shown: `${home}/tern/commands`, readable: true });
});
