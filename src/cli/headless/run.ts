/** `tern -p TASK`: one task, answer on stdout, progress on stderr, an exit code scripts can rely on. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { AgentEvent, ExitReason } from "../../agent/events.ts";
import type { TaskResult } from "../../agent/loop.ts";
import type { OutputFormat } from "../../config/settings.ts";
import { costUsd } from "../../config/prices.ts";
import { partialNote, Renderer, type Sink } from "../render/renderer.ts";
import { terminalSafe } from "../render/terminal_safe.ts";

/** Exit code for each way a task can end: 0 done, 1 error, 3 stopped early, 130 cancelled. */
export function exitCodeFor(reason: ExitReason): number {
  if (reason === "done") return 0;
  if (reason === "error") return 1;
  if (reason === "cancelled") return 130;
  return 3;
}

/** What a headless run needs besides its session. */
export interface HeadlessOptions {
  task: string;
  output: OutputFormat;
  stdout: Sink;
  stderr: Sink;
  /** Cancels the task (SIGINT, SIGTERM). */
  signal?: AbortSignal;
  /** Show a bug's stack on stderr (TERN_DEBUG=1). */
  debug?: boolean;
}

/** Runs the task on `session` (nobody to ask: its policy decides) and prints its result; resolves with the exit code. */
export async function runHeadless(session: AgentSession, options: HeadlessOptions): Promise<number> {
  const { output, stdout, stderr } = options;
  const progress = new Renderer(stderr, {
    showText: false,
    showReasoning: false,
    useColor: stderr.isTerminal,
  });
  // Calls refused for lack of approval: listed in the json result so a script sees what did not run.
  const denials: PermissionDenial[] = [];
  const onEvent = (event: AgentEvent) => {
    if (event.type === "tool_result" && event.errorKind === "denied") {
      denials.push({ tool_name: event.name, tool_call_id: event.id, reason: event.content });
    }
    if (output === "stream-json") stdout.write(JSON.stringify(snakeCaseKeys(event)) + "\n");
    else progress.handle(event);
  };
  let result: TaskResult;
  try {
    result = await session.run(options.task, { onEvent, signal: options.signal });
  } finally {
    progress.dispose();
  }
  if (result.error) stderr.write(`tern: ${result.error}\n`);
  if (result.debug && options.debug) stderr.write(`${result.debug}\n`);
  if (result.exitReason === "cancelled" && output !== "stream-json") stderr.write("tern: cancelled\n");
  if (output === "json") {
    const id = session.current.session?.id;
    const sessionId = id ? { session_id: id } : {};
    const object = {
      ...resultObject(result, session.model.model),
      permission_denials: denials,
      ...sessionId,
    };
    stdout.write(JSON.stringify(object) + "\n");
  } else if (output === "text") {
    if (result.partial) stderr.write(`tern: ${partialNote(result.exitReason)}\n`);
    // On a pipe the answer goes out raw (scripts get the bytes); on a terminal no escape of the model's reaches it.
    const text = stdout.isTerminal ? terminalSafe(result.text) : result.text;
    if (text !== "") stdout.write(text.endsWith("\n") ? text : text + "\n");
  }
  return exitCodeFor(result.exitReason);
}

/** A call the approval gate refused, as `--output json` lists it. */
export interface PermissionDenial {
  tool_name: string;
  tool_call_id: string;
  reason: string;
}

/**
 * The `--output json` object: `{result, exit_reason, partial, turns, tool_calls, usage}` (+ error); a
 * cancelled run is partial too. `usage` carries `cache_read_tokens` (prompt tokens read from the provider's
 * cache; `cached_tokens` is the same figure under its older name) and `cost_usd`, null when `model`'s price
 * is not known.
 */
export function resultObject(result: TaskResult, model = ""): Record<string, unknown> {
  return {
    result: result.text,
    exit_reason: result.exitReason,
    partial: result.partial || result.exitReason === "cancelled",
    turns: result.turns,
    tool_calls: result.toolCalls,
    usage: {
      prompt_tokens: result.usage.promptTokens,
      completion_tokens: result.usage.completionTokens,
      total_tokens: result.usage.totalTokens,
      cached_tokens: result.usage.cachedTokens ?? 0,
      cache_read_tokens: result.usage.cachedTokens ?? 0,
      reasoning_tokens: result.usage.reasoningTokens ?? 0,
      cost_usd: roundDollars(costUsd(model, result.usage)),
    },
    ...(result.error ? { error: result.error } : {}),
  };
}

/** The same value with every object key in snake_case, so stream-json and json use the same names. */
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
function roundDollars(dollars: number | null): number | null {
  return dollars === null ? null : Math.round(dollars * 1e8) / 1e8;
}
