/**
 * Claude Code's tool names and argument shapes beside tern's, so that settings written for Claude Code
 * (hook matchers, permission rules, hook scripts reading `tool_input.file_path`) work unchanged. MCP tools
 * are `mcp__<server>__<tool>` in both. Claude Code tools tern lacks (NotebookEdit) map to none.
 */
import { isAbsolute, join } from "../fs/path.ts";

/** Claude Code's name → tern's tool (undefined: tern has no such tool). */
const TERN_NAME: Readonly<Record<string, string | undefined>> = {
  Bash: "execute_command",
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Grep: "grep_code",
  Glob: "glob_files",
  LS: "list_dir",
  WebFetch: "web_fetch",
  WebSearch: "web_search",
  Task: "task",
  TodoWrite: "update_plan",
  NotebookEdit: undefined,
};

/** True when `name` is one of Claude Code's built-in tool names. */
export function isClaudeToolName(name: string): boolean {
  return Object.hasOwn(TERN_NAME, name);
}

/** tern's name for a tool named as Claude Code names it; other names (tern's own, `mcp__…`) as given. */
export function ternToolName(name: string): string | undefined {
  return isClaudeToolName(name) ? TERN_NAME[name] : name;
}

/** Claude Code's names for tern's tool `name` (none for tern's own tools it lacks, e.g. command_output). */
export function claudeToolNames(name: string): string[] {
  return Object.keys(TERN_NAME).filter((claude) => TERN_NAME[claude] === name);
}

/** The one name Claude Code would give this call: edit_file with `edits` is MultiEdit; `mcp__…` as is. */
export function claudeToolName(name: string, input: unknown): string {
  if (name === "edit_file" && Array.isArray(field(input, "edits"))) return "MultiEdit";
  return claudeToolNames(name)[0] ?? name;
}

/**
 * The call's arguments as Claude Code's tool would have them (`file_path` absolute, `old_string`,
 * `new_string`, Task's `subagent_type`); a tool without a Claude Code twin keeps its own.
 */
export function claudeToolInput(name: string, input: unknown, root: string): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const args = input as Record<string, unknown>;
  const file = (path: unknown) =>
    typeof path === "string" ? (isAbsolute(path) ? path : join(root, path)) : root;
  const edit = (one: Record<string, unknown>) => ({
    old_string: one.old_text,
    new_string: one.new_text,
    ...one.replace_all !== undefined && { replace_all: one.replace_all },
  });
  switch (name) {
    case "read_file":
      return { file_path: file(args.path), ...pick(args, ["offset", "limit"]) };
    case "write_file":
      return { file_path: file(args.path), content: args.content };
    case "edit_file":
      return Array.isArray(args.edits)
        ? { file_path: file(args.path), edits: args.edits.map((one) => edit(one as Record<string, unknown>)) }
        : { file_path: file(args.path), ...edit(args) };
    case "list_dir":
      return { path: file(args.path) };
    case "grep_code":
    case "glob_files":
      return { ...pick(args, ["pattern", "glob"]), ...args.path !== undefined && { path: file(args.path) } };
    case "task":
      return {
        description: args.description,
        prompt: args.prompt,
        subagent_type: args.agent ?? "general-purpose",
      };
    default:
      return input;
  }
}

/**
 * A permission rule as Claude Code writes it (`Bash(npm test:*)`, `Read(./src/**)`, `Edit`) in tern's form
 * (`execute_command(npm test*)`, `read_file(src/**)`); undefined for a tool tern lacks. A rule in tern's own
 * form comes back unchanged.
 */
export function ternRule(
  tool: string,
  pattern: string | undefined,
): { tool: string; pattern?: string } | undefined {
  if (!isClaudeToolName(tool)) return { tool, pattern };
  const name = TERN_NAME[tool];
  if (name === undefined) return undefined;
  if (pattern === undefined) return { tool: name };
  // Claude Code's prefix mark is `:*` ("npm test:*" covers "npm test" and "npm test --watch").
  const prefix = /^(.*?):\*$/s.exec(pattern);
  if (name === "execute_command") return { tool: name, pattern: prefix ? `${prefix[1]}*` : pattern };
  return { tool: name, pattern: pattern.replace(/^\.\//, "") };
}

function pick(args: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => args[key] !== undefined).map((key) => [key, args[key]]));
}

function field(input: unknown, key: string): unknown {
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
}
