/**
 * One answer's tool calls, in one straight line each: validated, inspected (the tool's dry run and plan),
 * approved when it must be, run with that plan, and settled: exactly one result in the log, also when the
 * turn is cancelled or a tool says the task cannot go on. Reads run together, writes and commands alone, in
 * the model's order.
 */
import type { ToolCall } from "../../llm/types.ts";
import {
  type CallContext,
  errorResult,
  type InspectedCall,
  inspectPrepared,
  runPrepared,
} from "../../tools/registry.ts";
import { FatalToolError, stopWords, TAIL_LINES, type ToolResult, type ToolUpdate } from "../../tools/tool.ts";
import type { Conversation } from "../log/conversation.ts";
import type { LoopOptions } from "./loop_options.ts";
import { MAX_CALLS_PER_TURN, overCapText } from "./protocol.ts";
import type { StepCall } from "./runaway.ts";
import { scheduleCalls } from "./scheduler.ts";
import { cleanToolOutput, stripControls } from "../policy/untrusted.ts";
import type { HookContext } from "../project/hooks.ts";

/** Gives each call past MAX_CALLS_PER_TURN its error result, so every call of the answer has one. */
export function refuseOverCap(calls: ToolCall[], conversation: Conversation, options: LoopOptions): void {
  for (const call of calls.slice(MAX_CALLS_PER_TURN)) {
    options.onEvent({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments });
    settle(call, errorResult(overCapText(calls.length), "refused"), conversation, options);
  }
}

/**
 * Writes a call's result, the one place that does: its output cleaned once (escape sequences and hidden
 * characters removed; the human is told how many hidden ones), then its event and its log entry, alike.
 */
function settle(call: ToolCall, result: ToolResult, conversation: Conversation, options: LoopOptions): void {
  const { content, hidden } = cleanToolOutput(result.content);
  const details = hidden === 0 ? result.details : { ...result.details, hiddenCharacters: hidden };
  const isError = result.error !== undefined;
  const fields = { name: call.name, content, isError, errorKind: result.error?.kind, details };
  options.onEvent({ type: "tool_result", id: call.id, ...fields });
  const images = result.images?.length ? { images: result.images } : {};
  conversation.append({ kind: "tool_result", callId: call.id, ...fields, ...images });
  // A failed call's huge arguments (a 20 MB write refused) stay in the log, but the model is sent only what
  // its refusal needs: kept whole they would fill the window, and the refusal would be cut to nothing.
  if (isError && call.arguments.length > MAX_FAILED_ARGUMENT_CHARS) {
    conversation.append({ kind: "compaction", droppedOutputs: [], abbreviatedCalls: [call.id] });
  }
}

/** A failed call's arguments longer than this are abbreviated in what the model is sent (see settle). */
const MAX_FAILED_ARGUMENT_CHARS = 16_000;

/** A call's outcome: its result, and whether it really ran (denied and refused calls did not). */
type CallOutcome = ToolResult & { executed: boolean };

/** A call after validation and its dry run: ready to run, or the error result that replaces running it. */
type Checked = { call: ToolCall; inspected?: InspectedCall; result?: ToolResult };

/**
 * Runs one turn's calls through the scheduler (reads up to 4 at once, writes and commands alone, in the
 * model's order) and logs every result in the model's order, also when cancelled. `cancelled` is true when
 * the turn was stopped: by the user's signal, or by "abort this turn" at an approval prompt; `fatal` when a
 * tool said the task cannot go on.
 */
export async function runToolCalls(
  calls: ToolCall[],
  conversation: Conversation,
  options: LoopOptions,
): Promise<{ step: StepCall[]; cancelled: boolean; fatal?: FatalToolError }> {
  const turn = new TurnCalls(calls, conversation, options);
  await scheduleCalls<ToolCall, CallOutcome>(calls, {
    isReadOnly: (_call, index) => turn.inspect(index),
    run: (_call, index) => turn.run(index),
    cancelled: () => turn.notRun(),
    onSettled: (outcome, _call, index) => turn.settle(outcome, index),
    signal: turn.ctx.signal,
  });
  const { step, ctx, fatal } = turn;
  return { step, cancelled: ctx.signal.aborted && fatal === undefined, fatal };
}

/**
 * One turn's calls on their way through the scheduler. Each is inspected once, just before the scheduler
 * places it: after every earlier write has run, so a write's preview shows what it will change now.
 */
class TurnCalls {
  readonly step: StepCall[] = [];
  readonly ctx: CallContext;
  fatal?: FatalToolError;
  readonly #stop = new AbortController();
  readonly #checked: Checked[] = [];
  readonly #announced = new Set<number>();

  constructor(
    readonly calls: ToolCall[],
    readonly conversation: Conversation,
    readonly options: LoopOptions,
  ) {
    const signal = AbortSignal.any([options.signal, this.#stop.signal]);
    const { editor, diagnostics } = options;
    this.ctx = { root: options.root, signal, ...(editor && { editor }), ...(diagnostics && { diagnostics }) };
  }

  /** Validates and inspects call `index`; says whether it only reads (and may run beside other reads). */
  async inspect(index: number): Promise<boolean> {
    if (this.fatal) return false;
    const call = this.calls[index];
    try {
      this.#checked[index] = await inspectCall(call, this.options, this.ctx);
    } catch (error) {
      if (!(error instanceof FatalToolError)) throw error;
      this.#checked[index] = { call, result: this.#onFatal(error) };
    }
    return this.#checked[index].inspected?.inspection.effect === "read";
  }

  async run(index: number): Promise<CallOutcome> {
    if (this.fatal) return this.notRun();
    this.#announce(index);
    try {
      return await runOneCall(this.#checked[index], this.options, this.ctx, () => this.#stop.abort());
    } catch (error) {
      if (error instanceof FatalToolError) return this.#onFatal(error);
      throw error;
    }
  }

  /** The outcome of a call that will not run: the turn was cancelled, or tern stopped. */
  notRun(): CallOutcome {
    const content = this.fatal ? `not run: tern stopped (${this.fatal.message})` : stopWords(this.ctx.signal);
    return { content, error: { kind: "cancelled" }, executed: false };
  }

  settle(outcome: CallOutcome, index: number): void {
    this.#announce(index);
    const call = this.calls[index];
    settle(call, outcome, this.conversation, this.options);
    const { error, executed } = outcome;
    this.step.push({ ...call, isError: error !== undefined, errorKind: error?.kind, executed });
  }

  #announce(index: number): void {
    if (this.#announced.has(index)) return;
    this.#announced.add(index);
    const { id, name, arguments: args } = this.calls[index];
    const summary = this.#checked[index]?.inspected?.inspection.summary;
    this.options.onEvent({ type: "tool_call", id, name, arguments: args, summary });
  }

  #onFatal(error: FatalToolError): CallOutcome {
    this.fatal ??= error;
    // Stopped a moment later, so this call reports the reason rather than being abandoned as cancelled.
    setTimeout(() => this.#stop.abort(), 0);
    return { content: `tern stopped: ${error.message}`, error: { kind: "internal" }, executed: false };
  }
}

/** Validates and inspects a call; a call that cannot run gets its error result instead. */
async function inspectCall(call: ToolCall, options: LoopOptions, ctx: CallContext): Promise<Checked> {
  const prepared = options.registry.prepare(call);
  if (!("tool" in prepared)) return { call, result: prepared };
  const inspected = await inspectPrepared(prepared, ctx);
  return "inspection" in inspected ? { call, inspected } : { call, result: inspected };
}

/** Asks approval when the call needs it (after the PreToolUse hooks), then runs it with its plan. */
async function runOneCall(
  checked: Checked,
  options: LoopOptions,
  ctx: CallContext,
  abortTurn: () => void,
): Promise<CallOutcome> {
  // Bad arguments and failed dry runs count as executed: a model stuck on them is noticed.
  if (checked.result) return { ...checked.result, executed: checked.result.error?.kind !== "internal" };
  const inspected = checked.inspected!;
  const hooked = await preToolUse(checked, options, ctx);
  if ("content" in hooked) return hooked;
  const refused = await approve(checked, options, { ctx, abortTurn, hooked });
  if (refused) return refused;
  const { id, name } = checked.call;
  options.onEvent({ type: "tool_start", id, name, effect: inspected.inspection.effect });
  let running = true;
  // Progress is for the human, cleaned like results, and only between the call's start and its result.
  const onUpdate = (update: ToolUpdate) => {
    if (!running) return;
    options.onEvent({
      type: "tool_update",
      id,
      name,
      tail: update.tail.slice(-TAIL_LINES).map(stripControls),
    });
  };
  const result = await runPrepared(inspected, { ...ctx, onUpdate, callId: id }).finally(() => {
    running = false;
  });
  // What a cancelled tool produced before it stopped is still worth showing the model next turn.
  if (options.signal.aborted) {
    return {
      ...result,
      content: `${stopWords(options.signal)}\n${result.content}`,
      error: { kind: "cancelled" },
      executed: true,
    };
  }
  if (result.error !== undefined || !options.hooks) return { ...result, executed: true };
  // PostToolUse hooks (a formatter, a linter): what they say goes to the model with the result.
  const said = await options.hooks.postToolUse(
    name,
    inspected.args,
    result.content,
    hookContext(options, ctx),
  );
  return { ...result, content: said ? `${result.content}\n${said}` : result.content, executed: true };
}

/**
 * The PreToolUse hooks on a call: the outcome of a call they block (or whose turn ended meanwhile), else
 * whether they allowed it.
 */
async function preToolUse(
  checked: Checked,
  options: LoopOptions,
  ctx: CallContext,
): Promise<CallOutcome | { allow: boolean; ask?: string }> {
  if (!options.hooks) return { allow: false };
  const { args } = checked.inspected!;
  const verdict = await options.hooks.preToolUse(checked.call.name, args, hookContext(options, ctx));
  if (verdict.block !== undefined) {
    return { content: verdict.block, error: { kind: "refused" }, executed: false };
  }
  // Cancelled while its hooks ran: a hook cut short has not had its say, so the call does not run.
  if (ctx.signal.aborted) {
    return { content: stopWords(ctx.signal), error: { kind: "cancelled" }, executed: false };
  }
  return { allow: verdict.allow === true, ...verdict.ask !== undefined && { ask: verdict.ask } };
}

/** Asks the approval gate when the call is not a read; the outcome of a call that may not run, else undefined. */
async function approve(
  checked: Checked,
  options: LoopOptions,
  how: { ctx: CallContext; abortTurn: () => void; hooked: { allow: boolean; ask?: string } },
): Promise<CallOutcome | undefined> {
  const { inspection } = checked.inspected!;
  if (inspection.effect === "read") return undefined;
  const hooked = {
    ...how.hooked.allow && { allowedByHook: true },
    ...how.hooked.ask !== undefined && { askedByHook: how.hooked.ask },
  };
  const decision = await options.approve({ call: checked.call, inspection, ...hooked });
  if (!decision.allow && decision.abort) how.abortTurn();
  if (!decision.allow) {
    const details = decision.needs ? { details: { needs: decision.needs } } : {};
    return { content: decision.reason, error: { kind: "denied" }, executed: false, ...details };
  }
  if (how.ctx.signal.aborted) {
    return { content: stopWords(how.ctx.signal), error: { kind: "cancelled" }, executed: false };
  }
  return undefined;
}

/** What hooks need from the loop: the call's signal, and warnings shown to the human as notices. */
function hookContext(options: LoopOptions, ctx: CallContext): HookContext {
  return {
    signal: ctx.signal,
    warn: (message) => options.onEvent({ type: "notice", level: "warn", message }),
  };
}
