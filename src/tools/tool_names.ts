/**
 * Facts about tool names, written once, next to the tools: what a sub-agent gets by default and never, the
 * kind an editor shows for each built-in tool (Claude Code's names for them: claude_tools.ts).
 */

/** The tools a sub-agent gets when its agent file names none: the read-only ones (web_search when offered). */
export const CHILD_DEFAULT_TOOLS = [
  "glob_files",
  "grep_code",
  "list_dir",
  "read_file",
  "web_fetch",
  "web_search",
];

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
  web_search: "search",
};
