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

/** One hook command as configured, with where it comes from. */
export interface HookConfig {
  event: HookEvent;
  /** As written; "" matches everything. */
  matcher: string;
  command: string;
  timeoutMs: number;
  /** `user`: the user's own settings (runs with the user's permissions); `project`: the project's (sandboxed). */
  scope: "user" | "project";
  /** The settings file, as shown to the user. */
  file: string;
}

/** Reads `value` (a settings file's `hooks`); each entry it cannot use is skipped with a warning. */
export function parseHooks(
  value: unknown,
  from: { file: string; scope: HookConfig["scope"] },
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
  from: { file: string; scope: HookConfig["scope"] },
): { hooks: HookConfig[]; warnings: string[] } {
  const where = `${from.file}: hooks.${event}`;
  if (!isObject(group) || !Array.isArray(group.hooks)) {
    return { hooks: [], warnings: [`${where}: each entry needs "hooks": [{"type": "command", ...}]`] };
  }
  const matcher = typeof group.matcher === "string" ? group.matcher.trim() : "";
  if (matcherPattern(matcher) === null) {
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

/** The matcher as a whole-name pattern (null when it is not a valid regular expression). */
export function matcherPattern(matcher: string): RegExp | null {
  if (matcher === "" || matcher === "*") return /^/;
  try {
    return new RegExp(`^(?:${matcher})$`);
  } catch {
    return null;
  }
}

/** One line naming a hook: its event, matcher and command, e.g. "PreToolUse execute_command: ./check.sh". */
export function describeHook(hook: HookConfig): string {
  const matcher = hook.matcher === "" || hook.matcher === "*" ? "" : ` ${hook.matcher}`;
  return `${hook.event}${matcher}: ${hook.command}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
