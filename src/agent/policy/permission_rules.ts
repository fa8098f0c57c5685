/**
 * Permission rules: `tool`, `tool(pattern)`, in `.tern/settings.json` (the project's) and
 * `.tern/local/settings.json` (the user's own) as `permissions.allow` and `permissions.deny`. For execute_command the pattern is the command: exact, or a prefix ending in `*`
 * (`npm test*`), which never covers a compound command (`;`, `&&`, `|`, `$(`, redirections, several lines).
 * For file tools it is a glob over the paths the call touches (`src/**`). Pure: reading and saving the file
 * is config's job.
 */
import { posix } from "../../fs/path.ts";
import type { ApprovalRequest } from "./approval_request.ts";
import { loadPicomatch } from "../../fs/glob_matcher.ts";
import { type Executed, executedCommands } from "../../tools/shell/executed_commands.ts";
import { ternRule } from "../../tools/claude_tools.ts";

/** One parsed rule. */
export interface PermissionRule {
  /** As written, e.g. "execute_command(npm test*)". */
  text: string;
  tool: string;
  pattern?: string;
}

/** Shell syntax that joins commands or redirects: a prefix rule never allows such a command. */
const COMPOUND = /[;&|`<>\n]|\$\(/;
/**
 * Parses "tool" or "tool(pattern)", in tern's names or Claude Code's (`Bash(npm test:*)` is read as
 * `execute_command(npm test*)`; a Claude Code tool tern lacks keeps its name and covers nothing); undefined
 * when it is neither.
 */
export function parseRule(text: string): PermissionRule | undefined {
  const match = /^\s*([A-Za-z0-9_.-]+)\s*(?:\((.*)\))?\s*$/s.exec(text);
  if (!match) return undefined;
  const written = match[2]?.trim();
  const pattern = written === "" || written === "*" ? undefined : written;
  const rule = ternRule(match[1], pattern) ?? { tool: match[1], pattern };
  return { text: text.trim(), tool: rule.tool, pattern: rule.pattern };
}

/** True when `rule` covers the request (a path pattern loads picomatch on first use). */
export async function ruleMatches(rule: PermissionRule, request: ApprovalRequest): Promise<boolean> {
  if (rule.tool !== request.call.name) return false;
  if (rule.pattern === undefined) return true;
  const preview = request.inspection.preview;
  if (preview?.kind === "command") return commandMatches(rule.pattern, preview.command.trim());
  const paths = request.inspection.paths;
  if (paths.length === 0) return false;
  const isMatch = (await loadPicomatch())(rule.pattern, { dot: true });
  return paths.every((path) => isMatch(posix.normalize(path.replaceAll("\\", "/"))));
}

function commandMatches(pattern: string, command: string): boolean {
  if (!pattern.endsWith("*")) return command === pattern;
  if (COMPOUND.test(command)) return false;
  return command.startsWith(pattern.slice(0, -1));
}

/**
 * A deny pattern against one command that runs. `rm *` also covers a bare `rm`; a command whose arguments
 * grow at run time (`xargs rm`, `rm $f`) is covered when its known words already match, and may be when
 * the pattern goes on past them.
 */
function deniesOne(pattern: string, command: Executed): "yes" | "maybe" | "no" {
  const text = command.words.join(" ");
  if (!pattern.endsWith("*")) {
    if (text === pattern) return "yes";
    return command.open && pattern.startsWith(`${text} `) ? "maybe" : "no";
  }
  const prefix = pattern.slice(0, -1);
  if (text.startsWith(prefix) || (prefix.endsWith(" ") && text === prefix.trimEnd())) return "yes";
  if (!command.open) return "no";
  if (`${text} `.startsWith(prefix)) return "yes";
  return prefix.startsWith(`${text} `) ? "maybe" : "no";
}

/**
 * What a deny rule says about a command line: it covers the line or a command the line runs (`echo; rm x`,
 * `xargs rm`, `bash <<< 'rm x'`, `find -delete`), it may cover it (a command only the shell can resolve,
 * inline code, a git alias), or it does not.
 */
function denyMatch(pattern: string, command: string): "yes" | "maybe" | "no" {
  if (command === pattern || (pattern.endsWith("*") && command.startsWith(pattern.slice(0, -1)))) {
    return "yes";
  }
  let verdict: "maybe" | "no" = "no";
  for (const found of executedCommands(command)) {
    const one = found === null ? "maybe" : deniesOne(pattern, found);
    if (one === "yes") return "yes";
    if (one === "maybe") verdict = "maybe";
  }
  return verdict;
}

/** Suggested rules for "always allow" at the prompt: the exact command and its prefix, or the folder. */
export function suggestRules(request: ApprovalRequest): { rule: string; label: string }[] {
  const tool = request.call.name;
  const preview = request.inspection.preview;
  if (preview?.kind === "command") {
    const command = preview.command.trim();
    if (COMPOUND.test(command) || command.includes(")")) return [];
    const words = command.split(/\s+/);
    const prefix = words.length > 1 && !words[1].startsWith("-") ? words.slice(0, 2).join(" ") : words[0];
    return [
      { rule: `${tool}(${command})`, label: "this exact command" },
      { rule: `${tool}(${prefix}*)`, label: `commands starting with "${prefix}"` },
    ];
  }
  const paths = request.inspection.paths;
  if (paths.length === 0) return [];
  const dir = posix.dirname(paths[0].replaceAll("\\", "/"));
  if (dir === ".") return [{ rule: tool, label: `${tool} anywhere in the project` }];
  return [{ rule: `${tool}(${dir}/**)`, label: `${tool} under ${dir}/` }];
}

/** The project's rules, allow and deny; `add` keeps new ones for the rest of the session. */
export class PermissionRules {
  #allow: PermissionRule[] = [];
  #deny: PermissionRule[] = [];
  #ask: PermissionRule[] = [];
  /** Given rules that did not parse (skipped), for a warning. */
  readonly invalid: string[] = [];

  /** Rules that do not parse are skipped and listed in `invalid`. */
  constructor(rules: { allow?: string[]; deny?: string[]; ask?: string[] } = {}) {
    for (const list of ["allow", "deny", "ask"] as const) {
      for (const text of rules[list] ?? []) if (!this.add(list, text)) this.invalid.push(text);
    }
  }

  /** Adds a rule; false when it does not parse. */
  add(list: "allow" | "deny" | "ask", text: string): boolean {
    const rule = parseRule(text);
    if (!rule) return false;
    const rules = this.#list(list);
    if (!rules.some((known) => known.text === rule.text)) rules.push(rule);
    return true;
  }

  /**
   * The first rule of `list` covering the request. A deny rule for execute_command covers every command of
   * a compound line and every command it runs (see `executedCommands`).
   */
  async match(list: "allow" | "deny" | "ask", request: ApprovalRequest): Promise<PermissionRule | undefined> {
    for (const rule of this.#list(list)) {
      if (list === "deny" && this.#denyCommand(rule, request) === "yes") return rule;
      if (await ruleMatches(rule, request)) return rule;
    }
    return undefined;
  }

  /** A deny rule that may cover the command, though its words cannot be read for certain (`$g x`). */
  unclearDeny(request: ApprovalRequest): PermissionRule | undefined {
    return this.#deny.find((rule) => this.#denyCommand(rule, request) === "maybe");
  }

  #denyCommand(rule: PermissionRule, request: ApprovalRequest): "yes" | "maybe" | "no" {
    const preview = request.inspection.preview;
    if (rule.tool !== request.call.name || preview?.kind !== "command") return "no";
    if (rule.pattern === undefined) return "yes";
    return denyMatch(rule.pattern, preview.command.trim());
  }

  /** The rules as written, for /permissions. */
  list(): { allow: string[]; deny: string[]; ask: string[] } {
    const texts = (rules: PermissionRule[]) => rules.map((rule) => rule.text);
    return { allow: texts(this.#allow), deny: texts(this.#deny), ask: texts(this.#ask) };
  }

  #list(list: "allow" | "deny" | "ask"): PermissionRule[] {
    return list === "allow" ? this.#allow : list === "deny" ? this.#deny : this.#ask;
  }
}
