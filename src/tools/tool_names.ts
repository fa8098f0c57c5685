/**
 * Facts about tool names, written once, next to the tools: what a sub-agent gets by default and never, the
 * kind an editor shows for each built-in tool, and Claude Code's names for tern's tools.
 */

/** The tools a sub-agent gets when its agent file names none: the read-only ones. */
export const CHILD_DEFAULT_TOOLS = ["glob_files", "grep_code", "list_dir", "read_file", "web_fetch"];

/** Tools a sub-agent never gets, whatever its file says (a child keeps no plan and starts no child). */
export const NEVER_FOR_CHILDREN: ReadonlySet<string> = new Set(["task", "update_plan"]);

/** The kinds an editor shows a call as (ACP's tool kinds). */
export type EditorKind = "read" | "edit" | "search" | "execute" | "fetch" | "other";

/** The kind of each built-in tool; other tools (MCP) get theirs from their effect. */
export const TOOL_KINDS: Readonly<Record<string, EditorKind>> = {
  read_file: "read",
  list_dir: "read",
  glob_files: "search",
  grep_code: "search",
  write_file: "edit",
  edit_file: "edit",
  execute_command: "execute",
  web_fetch: "fetch",
};

/** Claude Code's tool names and the tern tools they are (agent files, hook matchers). */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Bash: "execute_command",
  Glob: "glob_files",
  Grep: "grep_code",
  LS: "list_dir",
  WebFetch: "web_fetch",
};
