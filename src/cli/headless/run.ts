/** `tern -p TASK`: one task, answer on stdout, progress on stderr, an exit code scripts can rely on. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { AgentEvent, ExitReason } from "../../agent/events.ts";
import type { TaskResult } from "../../agent/loop.ts";
import type { OutputFormat } from "../../config/settings.ts";
import { costUsd } from "../../config/prices.ts";
import { partialNote, Renderer, type Sink } from "../render/renderer.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import type { AskHuman } from "../../agent/approval.ts";

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
  /**
   * The run has a terminal: asks there, given how to make room for the question. Absent, a call that needs
   * a yes is refused (the policy decides) and named at the end.
   */
  ask?: (screen: AskScreen) => AskHuman;
}

/** What the terminal question needs of the progress printer. */
export interface AskScreen {
  /** Ends the progress line and stops the spinner before the question is drawn. */
  pause(): void;
  /** Prints the call's preview (a diff, the command) above the question. */
  show(text: string): void;
  /** "Abort this turn" or Ctrl-C at the question: cancels the task. */
  cancel(): void;
}

/**
 * Runs the task on `session` and prints its result; resolves with the exit code. A run that finished but had
 * calls refused for want of approval says so in one line and exits 3: its answer lacks what they would do.
 */
export async function runHeadless(session: AgentSession, options: HeadlessOptions): Promise<number> {
  const { output, stdout, stderr } = options;
  const progress = new Renderer(stderr, {
    showText: false,
    showReasoning: false,
    useColor: stderr.isTerminal,
  });
  const calls = new CallLog();
  const onEvent = (event: AgentEvent) => {
    calls.handle(event);
    if (output === "stream-json") stdout.write(JSON.stringify(snakeCaseKeys(event)) + "\n");
    else progress.handle(event);
  };
  const screen = {
    pause: () => progress.pause(),
    show: (text: string) => progress.printRendered(text),
    cancel: () => session.cancel(),
  };
  const ask = options.ask?.(screen);
  const approve = ask && session.gate(ask, (rule, error) => {
    progress.print(
      error ? `Could not save "${rule}": ${error.message}` : `Saved "${rule}" in .tern/settings.json.`,
    );
  });
  let result: TaskResult;
  try {
    result = await session.run(options.task, { onEvent, signal: options.signal, approve });
  } finally {
    progress.dispose();
  }
  const refused = result.exitReason === "done" && calls.refused.length > 0;
  printResult(session, result, { ...options, calls, refused });
  return refused ? 3 : exitCodeFor(result.exitReason);
}

/** Prints what the run ended with: the error, the answer, the json object, the refused calls. */
function printResult(
  session: AgentSession,
  result: TaskResult,
  options: HeadlessOptions & { calls: CallLog; refused: boolean },
): void {
  const { output, stdout, stderr, calls } = options;
  if (result.error) stderr.write(`tern: ${result.error}\n`);
  if (result.debug && options.debug) stderr.write(`${result.debug}\n`);
  if (result.exitReason === "cancelled" && output !== "stream-json") stderr.write("tern: cancelled\n");
  if (output === "json") {
    const id = session.current.session?.id;
    const object = resultObject(result, session.model.model);
    if (options.refused) object.partial = true;
    const sessionId = id ? { session_id: id } : {};
    stdout.write(JSON.stringify({ ...object, permission_denials: calls.denials, ...sessionId }) + "\n");
  } else if (output === "text") {
    if (result.partial) stderr.write(`tern: ${partialNote(result.exitReason)}\n`);
    if (result.text !== "") stdout.write(result.text.endsWith("\n") ? result.text : result.text + "\n");
    if (calls.refused.length > 0) stderr.write(`tern: ${refusedLine(calls.refused)}\n`);
  }
}

/** A call refused for want of approval: its tool, its target, and the flag that would let it run. */
export interface RefusedCall {
  name: string;
  target: string;
  needs: string;
}

/** The calls of a run as the json result and the closing line name them: denied ones and refused ones. */
class CallLog {
  /** Every denied call (refused for want of approval, by a deny rule, or by the user), for `--output json`. */
  readonly denials: PermissionDenial[] = [];
  /** Calls refused because nobody could approve them. */
  readonly refused: RefusedCall[] = [];
  readonly #targets = new Map<string, string>();

  handle(event: AgentEvent): void {
    if (event.type === "tool_call") this.#targets.set(event.id, event.summary ?? "");
    if (event.type !== "tool_result" || event.errorKind !== "denied") return;
    this.denials.push({ tool_name: event.name, tool_call_id: event.id, reason: event.content });
    const needs = event.details?.needs;
    if (needs) this.refused.push({ name: event.name, target: this.#targets.get(event.id) ?? "", needs });
  }
}

/**
 * One line for stderr: "2 calls were refused: edit_file src/a.ts, write_file b.txt; rerun with --approve
 * edits" (the strongest flag any of them needs; at most five named).
 */
export function refusedLine(refused: RefusedCall[]): string {
  const named = refused.slice(0, 5).map((call) => terminalSafe(`${call.name} ${clip(call.target)}`.trim()));
  const more = refused.length > named.length ? `, and ${refused.length - named.length} more` : "";
  const flag = refused.some((call) => call.needs === "--approve all") ? "--approve all" : refused[0].needs;
  const count = refused.length === 1 ? "1 call was refused" : `${refused.length} calls were refused`;
  return `${count}: ${named.join(", ")}${more}; rerun with ${flag}`;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
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
