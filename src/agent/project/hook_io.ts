/**
 * What a hook reads and what it may answer: the event as JSON (with tern's tool names, or, for a hook written
 * for Claude Code, Claude Code's names and argument shapes), and Claude Code's JSON output on its stdout.
 */
import { claudeToolInput, claudeToolName } from "../../tools/claude_tools.ts";
import { truncateMiddle } from "../../tools/_truncate.ts";

/** Bytes of event JSON at most (it travels in an environment variable, capped at 128 KiB by the kernel). */
const MAX_EVENT_BYTES = 100_000;

/** What a hook's JSON output decides. */
export interface JsonDecision {
  block?: string;
  allow?: boolean;
  ask?: string;
  context?: string;
  /** `"continue": false`: all work stops (the reason is `stopReason`). */
  halt?: string;
}

/** The tool fields of an event as Claude Code names them (none for an event without a tool). */
export function claudeFields(fields: Record<string, unknown>, root: string): Record<string, unknown> {
  if (typeof fields.tool_name !== "string") return {};
  const name = fields.tool_name;
  return {
    tool_name: claudeToolName(name, fields.tool_input),
    tool_input: claudeToolInput(name, fields.tool_input, root),
  };
}

/**
 * Claude Code's JSON output, as far as tern uses it: `decision` ("allow"/"approve" or "block"/"deny") with
 * `reason`, or `hookSpecificOutput.permissionDecision` with its reason, and `additionalContext`.
 */
export function jsonDecision(stdout: string): JsonDecision | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Other JSON (a hook that prints data) is output like any text.
  if (
    typeof json !== "object" || json === null ||
    !("decision" in json || "hookSpecificOutput" in json || json.continue === false)
  ) {
    return undefined;
  }
  // `"continue": false` stops the work, with `stopReason`.
  if (json.continue === false) return { halt: String(json.stopReason ?? json.reason ?? "") };
  const specific = (json.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const decision = specific.permissionDecision ?? json.decision;
  const reason = String(specific.permissionDecisionReason ?? json.reason ?? "");
  const context = typeof specific.additionalContext === "string" ? specific.additionalContext : "";
  if (decision === "block" || decision === "deny") return { block: reason };
  if (decision === "ask") return { ask: reason };
  return { allow: decision === "allow" || decision === "approve", context };
}

/** The event as JSON within MAX_EVENT_BYTES: long strings inside are cut (a whole file's content, say). */
export function eventJson(event: Record<string, unknown>): string {
  for (const max of [Infinity, 16_000, 2_000, 200]) {
    const json = JSON.stringify(
      event,
      (_key, value) => typeof value === "string" && value.length > max ? truncateMiddle(value, max) : value,
    );
    if (new TextEncoder().encode(json).length <= MAX_EVENT_BYTES) return json;
  }
  return JSON.stringify({ hook_event_name: event.hook_event_name, cwd: event.cwd, truncated: true });
}
