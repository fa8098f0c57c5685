/**
 * The REPL's status line when a `statusLine` command is set (Claude Code's setting): the command gets
 * Claude Code's status JSON on stdin and the first line it prints is shown, made terminal-safe; without one,
 * or when it prints nothing or fails, tern's own line is shown.
 */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Usage } from "../../llm/types.ts";
import { VERSION } from "../version.ts";
import { statusLine } from "./status_line.ts";
import { terminalSafe } from "./terminal_safe.ts";

/** When this process started: the session's duration, as Claude Code's `cost.total_duration_ms`. */
const STARTED = Date.now();

/** Sessions whose status command already failed once: said once, not after every task. */
const warned = new WeakSet<AgentSession>();

/** The status line after a task: the `statusLine` command's first line, or tern's own line. */
export async function shownStatusLine(
  session: AgentSession,
  task?: Usage,
  onWarning?: (message: string) => void,
): Promise<string> {
  const own = statusLine(session.usage, task);
  if (!session.hooks.list().some((hook) => hook.event === "StatusLine")) return own;
  const warnings: string[] = [];
  // The command's own time limit (5 s) ends it; nothing else cancels a status line.
  const ctx = { signal: new AbortController().signal, warn: (message: string) => warnings.push(message) };
  const line = await session.hooks.statusLine(claudeStatus(session), ctx).catch(() => undefined);
  if (warnings.length > 0 && !warned.has(session)) {
    warned.add(session);
    for (const warning of warnings) onWarning?.(`status line: ${warning}`);
  }
  return line === undefined ? own : terminalSafe(line);
}

/** Claude Code's status JSON, from what the session knows (null where tern does not know it). */
export function claudeStatus(session: AgentSession): Record<string, unknown> {
  const { usage } = session;
  const { model, label } = session.model;
  const known = usage.info.price !== undefined;
  return {
    session_id: session.current.session?.id ?? null,
    transcript_path: session.current.session?.path ?? null,
    cwd: session.root,
    model: { id: model, display_name: model, provider: label },
    workspace: { current_dir: session.root, project_dir: session.root },
    version: VERSION,
    output_style: { name: "default" },
    cost: {
      total_cost_usd: known ? usage.cost : null,
      total_duration_ms: Date.now() - STARTED,
    },
    context_window: {
      total_input_tokens: usage.total.promptTokens,
      total_output_tokens: usage.total.completionTokens,
      context_window_size: usage.info.contextWindow ?? null,
      current_usage: usage.last
        ? {
          input_tokens: usage.last.promptTokens - (usage.last.cachedTokens ?? 0),
          output_tokens: usage.last.completionTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: usage.last.cachedTokens ?? 0,
        }
        : null,
    },
  };
}
