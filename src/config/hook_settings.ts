/**
 * The `hooks` section of a settings file, as Claude Code writes it: per event, a list of
 * `{ "matcher": "execute_command", "hooks": [{ "type": "command", "command": "...", "timeout": 30 }] }`.
 * The matcher (a tool name, or a regular expression over tool names; empty or `*` for every tool) is used by
 * PreToolUse and PostToolUse, by SessionStart over how the session started, and by Notification over its
 * `notification_type`; the timeout is in seconds.
 */

/** The events a hook can run on. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
  "Notification",
] as const;

/** One of HOOK_EVENTS. */
export type HookEvent = typeof HOOK_EVENTS[number];

/** A hook's time limit when its settings give none, in milliseconds. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** One hook command as configured, with where it comes from; a `statusLine` command is one too. */
export interface HookConfig {
  event: HookEvent | "StatusLine";
  /** As written; "" matches everything. */
  matcher: string;
  command: string;
  timeoutMs: number;
  /** `user`: the user's own settings (runs with the user's permissions); `project`: the project's (sandboxed). */
  scope: "user" | "project";
  /** The settings file, as shown to the user. */
  file: string;
  /**
   * `claude`: from `.claude/settings*.json`: its matcher is read as Claude Code reads it, and its event
   * JSON names tools and arguments as Claude Code does (Bash, `file_path`).
   */
  dialect?: "claude";
}

/** Where a hook comes from: its file, its scope, its dialect. */
export type HookSource = Pick<HookConfig, "file" | "scope" | "dialect">;

/** A status-line command's time limit, in milliseconds. */
const STATUS_LINE_TIMEOUT_MS = 5_000;

/** Reads `value` (a settings file's `hooks`); each entry it cannot use is skipped with a warning. */
export function parseHooks(
  value: unknown,
  from: HookSource,
): { hooks: HookConfig[]; warnings: string[] } {
  const hooks: HookConfig[] = [];
  const warnings: string[] = [];
  if (value === undefined) return { hooks, warnings };
  if (!isObject(value)) {
    return {
      hooks,
      warnings: [`${from.file}: hooks should be an object of events, e.g. {"PreToolUse": [...]}`],
    };
  }
  for (const [event, groups] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      warnings.push(`${from.file}: hooks.${event} is not an event tern knows (${HOOK_EVENTS.join(", ")})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      warnings.push(`${from.file}: hooks.${event} should be a list of {"matcher", "hooks"}`);
      continue;
    }
    for (const group of groups) {
      const parsed = parseGroup(event as HookEvent, group, from);
      hooks.push(...parsed.hooks);
      warnings.push(...parsed.warnings);
    }
  }
  return { hooks, warnings };
}

function parseGroup(
  event: HookEvent,
  group: unknown,
  from: HookSource,
): { hooks: HookConfig[]; warnings: string[] } {
  const where = `${from.file}: hooks.${event}`;
  if (!isObject(group) || !Array.isArray(group.hooks)) {
    return { hooks: [], warnings: [`${where}: each entry needs "hooks": [{"type": "command", ...}]`] };
  }
  const matcher = typeof group.matcher === "string" ? group.matcher.trim() : "";
  if (matcherPattern(matcher, from.dialect) === null) {
    return { hooks: [], warnings: [`${where}: the matcher "${matcher}" is not a valid regular expression`] };
  }
  const hooks: HookConfig[] = [];
  const warnings: string[] = [];
  for (const hook of group.hooks) {
    if (
      !isObject(hook) || hook.type !== "command" || typeof hook.command !== "string" || !hook.command.trim()
    ) {
      warnings.push(`${where}: a hook must be {"type": "command", "command": "..."}; skipped`);
      continue;
    }
    const seconds = hook.timeout;
    const valid = typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0;
    if (seconds !== undefined && !valid) warnings.push(`${where}: timeout is in seconds (a number over 0)`);
    const timeoutMs = valid ? Math.min(seconds * 1000, 3_600_000) : DEFAULT_HOOK_TIMEOUT_MS;
    hooks.push({ event, matcher, command: hook.command, timeoutMs, ...from });
  }
  return { hooks, warnings };
}

/**
 * The matcher as a pattern over tool names (null when it is not a valid regular expression): tern reads it
 * as a whole name; Claude Code reads names and `A|B` lists exactly and any other pattern anywhere in the name
 * (`mcp__.*`, `Notebook.*`).
 */
export function matcherPattern(matcher: string, dialect?: "claude"): RegExp | null {
  if (matcher === "" || matcher === "*") return /^/;
  const whole = dialect !== "claude" || /^[A-Za-z0-9_|\s]+$/.test(matcher);
  const source = whole ? matcher.split("|").map((name) => name.trim()).join("|") : matcher;
  try {
    return new RegExp(whole ? `^(?:${source})$` : source);
  } catch {
    return null;
  }
}

/**
 * A settings file's `statusLine`, `{"type": "command", "command": "..."}`, as a hook run for the REPL's
 * status line (undefined when there is none; a warning for one tern cannot use).
 */
export function parseStatusLine(value: unknown, from: HookSource): { hook?: HookConfig; warnings: string[] } {
  if (value === undefined) return { warnings: [] };
  if (
    !isObject(value) || value.type !== "command" || typeof value.command !== "string" || !value.command.trim()
  ) {
    return { warnings: [`${from.file}: statusLine should be {"type": "command", "command": "..."}`] };
  }
  const hook = {
    event: "StatusLine",
    matcher: "",
    command: value.command,
    timeoutMs: STATUS_LINE_TIMEOUT_MS,
  };
  return { hook: { ...hook, ...from } as HookConfig, warnings: [] };
}

/** One line naming a hook: its event, matcher and command, e.g. "PreToolUse execute_command: ./check.sh". */
export function describeHook(hook: HookConfig): string {
  const matcher = hook.matcher === "" || hook.matcher === "*" ? "" : ` ${hook.matcher}`;
  return `${hook.event}${matcher}: ${hook.command}`;
}

/** describeHook, naming the file when it is not `.tern/settings.json` (the trust question's lines). */
export function describeSuppliedHook(hook: HookConfig): string {
  return hook.dialect === "claude" ? `${describeHook(hook)} (${hook.file})` : describeHook(hook);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
