/**
 * The stream-json contract, version 1 (docs/stream-json.md, docs/stream-json.schema.json): each AgentEvent as
 * one JSON object with `"v": 1`, snake_case names, an `init` event first and a `result` event per turn. The
 * `result` object is also what `--output json` prints.
 */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { AgentEvent } from "../../agent/events.ts";
import type { TaskResult } from "../../agent/loop/loop.ts";
import { costOf } from "../../config/prices.ts";
import { VERSION } from "../version.ts";
import type { DiagnosticsOutcome } from "../../tools/lsp/report.ts";

/** The contract's version, on every event. */
export const STREAM_JSON_VERSION = 1;

/** Characters of a tool result's content an event carries; the rest is summarised by its length. */
export const RESULT_CONTENT_CHARS = 2000;

/** One event of the contract: `v`, `type` and the event's own snake_case fields. */
export type StreamEvent = { v: 1; type: string; [field: string]: unknown };

/** A call the approval gate refused, as the `result` event lists it. */
export interface PermissionDenial {
  tool_name: string;
  tool_call_id: string;
  reason: string;
}

/** The first event of a run: who answers, with which tools, where, under which approval mode. */
export function initEvent(session: AgentSession, extra: { input_format?: string } = {}): StreamEvent {
  const { provider, model, api } = session.model;
  return event("init", {
    session_id: session.current.session?.id ?? null,
    tern_version: VERSION,
    model,
    provider,
    wire: api,
    tools: session.current.registry.specs().map((tool) => tool.name),
    cwd: session.root,
    permission_mode: session.mode,
    input_format: extra.input_format ?? "text",
  });
}

/** `event` in the contract's shape; null for events the contract leaves out (`final` becomes `result`). */
export function streamEvent(agentEvent: AgentEvent): StreamEvent | null {
  switch (agentEvent.type) {
    case "final":
      return null;
    case "tool_result": {
      const { id, name, content, isError, errorKind } = agentEvent;
      const { diagnostics, ...details } = agentEvent.details ?? {};
      const cut = content.length > RESULT_CONTENT_CHARS;
      return event("tool_result", {
        id,
        name,
        is_error: isError,
        error_kind: errorKind,
        content: cut ? content.slice(0, RESULT_CONTENT_CHARS) : content,
        content_chars: content.length,
        content_truncated: cut,
        diagnostics: diagnostics && diagnosticsField(diagnostics),
        details: agentEvent.details === undefined ? undefined : snakeCaseKeys(details),
      });
    }
    case "child_event":
      return childEvent(agentEvent.childId, agentEvent.event);
    default: {
      const { type, ...fields } = agentEvent;
      return event(type, snakeCaseKeys(fields) as Record<string, unknown>);
    }
  }
}

/** What the language server said of a file change, with 1-based lines and columns as people count them. */
function diagnosticsField(outcome: DiagnosticsOutcome): Record<string, unknown> {
  if (outcome.state === "not_ready") return { ...outcome };
  const introduced = outcome.introduced.map(({ line, character, message, code, source }) => ({
    line: line + 1,
    column: character + 1,
    message,
    code,
    source,
  }));
  return { ...outcome, introduced };
}

/** A sub-agent's event: tagged with its id (its end as `child_end`), converted as a top-level one, without `v`. */
function childEvent(childId: string, inner: AgentEvent): StreamEvent | null {
  if (inner.type === "final") {
    const { text, exitReason, partial } = inner;
    return event("child_end", { child_id: childId, text, exit_reason: exitReason, partial });
  }
  const converted = streamEvent(inner);
  if (converted === null) return null;
  const { v: _v, ...rest } = converted;
  return event("child_event", { child_id: childId, event: rest });
}

/** What a `result` event says besides the task's own result. */
export interface ResultContext {
  session: AgentSession;
  denials: PermissionDenial[];
  durationMs: number;
}

/**
 * The `result` event of one turn: how it ended, its answer (`text`, and `result` under the name `--output
 * json` always used), turns, usage with cached tokens and cost, duration, refusals and the session id.
 */
export function resultEvent(result: TaskResult, context: ResultContext): StreamEvent {
  // The session's own price, as the status line and /cost use it: null where it is unknown (custom endpoint).
  const price = context.session.model.price;
  return event("result", {
    session_id: context.session.current.session?.id ?? null,
    exit_reason: result.exitReason,
    partial: result.partial || result.exitReason === "cancelled",
    text: result.text,
    result: result.text,
    ...(result.error ? { error: result.error } : {}),
    turns: result.turns,
    tool_calls: result.toolCalls,
    usage: {
      prompt_tokens: result.usage.promptTokens,
      completion_tokens: result.usage.completionTokens,
      total_tokens: result.usage.totalTokens,
      cached_tokens: result.usage.cachedTokens ?? 0,
      cache_read_tokens: result.usage.cachedTokens ?? 0,
      reasoning_tokens: result.usage.reasoningTokens ?? 0,
      cost_usd: price ? roundDollars(costOf(price, result.usage)) : null,
    },
    duration_ms: Math.round(context.durationMs),
    permission_denials: context.denials,
  });
}

/** A line the contract could not take from stdin, or another problem worth a consumer's attention. */
export function errorEvent(message: string): StreamEvent {
  return event("error", { message });
}

/** `{v: 1, type, ...fields}` without the fields that are undefined. */
export function event(type: string, fields: Record<string, unknown>): StreamEvent {
  const defined = Object.entries(fields).filter(([, value]) => value !== undefined);
  return { v: STREAM_JSON_VERSION, type, ...Object.fromEntries(defined) };
}

/** The same value with every object key in snake_case. */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map((
      [key, inner],
    ) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCaseKeys(inner)]),
  );
}

/** Dollars to 8 decimals (a millionth of a cent): 0.00048356, not 0.00048356000000000007. */
function roundDollars(dollars: number): number {
  return Math.round(dollars * 1e8) / 1e8;
}
