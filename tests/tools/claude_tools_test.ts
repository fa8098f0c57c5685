/** Claude Code's tool names and argument shapes beside tern's. */
import { assertEquals } from "../support/assert.ts";
import {
  claudeToolInput,
  claudeToolName,
  claudeToolNames,
  ternRule,
  ternToolName,
} from "../../src/tools/claude_tools.ts";

Deno.test("ternToolName() maps Claude Code's names; tern's own and MCP names pass; a tool tern lacks is none", () => {
  const names = [
    "Bash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "Grep",
    "Glob",
    "LS",
    "WebFetch",
    "Task",
    "TodoWrite",
  ];
  assertEquals(names.map(ternToolName), [
    "execute_command",
    "read_file",
    "write_file",
    "edit_file",
    "edit_file",
    "grep_code",
    "glob_files",
    "list_dir",
    "web_fetch",
    "task",
    "update_plan",
  ]);
  assertEquals(
    ["NotebookEdit", "WebSearch", "read_file", "mcp__db__query"].map(ternToolName),
    [undefined, "web_search", "read_file", "mcp__db__query"],
  );
  assertEquals(claudeToolNames("edit_file"), ["Edit", "MultiEdit"]);
  assertEquals(claudeToolNames("command_output"), []);
});

Deno.test("claudeToolInput() gives file_path absolute, old_string/new_string, and MultiEdit for edits[]", () => {
  const root = "/work/p";
  assertEquals(claudeToolInput("write_file", { path: "a.txt", content: "x" }, root), {
    file_path: "/work/p/a.txt",
    content: "x",
  });
  const one = { path: "src/a.ts", old_text: "a", new_text: "b", replace_all: true };
  assertEquals(claudeToolInput("edit_file", one, root), {
    file_path: "/work/p/src/a.ts",
    old_string: "a",
    new_string: "b",
    replace_all: true,
  });
  const many = { path: "a.ts", edits: [{ old_text: "a", new_text: "b" }] };
  assertEquals(claudeToolName("edit_file", many), "MultiEdit");
  assertEquals(claudeToolInput("edit_file", many, root), {
    file_path: "/work/p/a.ts",
    edits: [{ old_string: "a", new_string: "b" }],
  });
  assertEquals(claudeToolInput("execute_command", { command: "ls" }, root), { command: "ls" });
  assertEquals(claudeToolName("mcp__db__query", {}), "mcp__db__query");
});

Deno.test("ternRule() reads Claude Code's rules: Bash(npm test:*), Read(./src/**); tern's as written", () => {
  assertEquals(ternRule("Bash", "npm test:*"), { tool: "execute_command", pattern: "npm test*" });
  assertEquals(ternRule("Bash", "git status"), { tool: "execute_command", pattern: "git status" });
  assertEquals(ternRule("Read", "./src/**"), { tool: "read_file", pattern: "src/**" });
  assertEquals(ternRule("Edit", undefined), { tool: "edit_file" });
  assertEquals(ternRule("NotebookEdit", undefined), undefined);
  assertEquals(ternRule("WebSearch", undefined), { tool: "web_search" });
  assertEquals(ternRule("write_file", "docs/**"), { tool: "write_file", pattern: "docs/**" });
});
