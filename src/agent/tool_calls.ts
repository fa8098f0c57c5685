/**
 * One answer's tool calls: each is validated and inspected, approved when it must be, scheduled (reads
 * together, writes and commands alone, in the model's order), and given exactly one result in the log, also
 * when the turn is cancelled or a tool says the task cannot go on.
 */
import type { ToolCall } from "../llm/types.ts";
import { type CallContext, inspectPrepared, type PreparedCall, runPrepared } from "../tools/registry.ts";
import { type CallInspection, FatalToolError, type ToolResult } from "../tools/tool.ts";
import type { Conversation } from "./conversation.ts";
import type { LoopOptions } from "./loop.ts";
import { MAX_CALLS_PER_TURN, overCapText } from "./protocol.ts";
import type { StepCall } from "./runaway.ts";
import { scheduleCalls } from "./scheduler.ts";
import { countHidden } from "./untrusted.ts";

const CANCELLED = "cancelled by the user";

/** Gives each call past MAX_CALLS_PER_TURN its error result, so every call of the answer has one. */
export function refuseOverCap(calls: ToolCall[], conversation: Conversation, options: LoopOptions): void {
  for (const call of calls.slice(MAX_CALLS_PER_TURN)) {
    const content = overCapText(calls.length);
    const { id, name } = call;
    options.onEvent({ type: "tool_call", id, name, arguments: call.arguments });
    options.onEvent({ type: "tool_result", id, name, content, isError: true, errorKind: "refused" });
    conversation.append({
      kind: "tool_result",
      callId: id,
      name,
      content,
      isError: true,
      errorKind: "refused",
    });
  }
}

/** A call's outcome: its result, and whether it really ran (denied and refused calls did not). */
type CallOutcome = ToolResult & { executed: boolean };

/** A prepared call with its inspection (or the error result that replaces running it). */
type Checked = { call: ToolCall; prepared?: PreparedCall; inspection?: CallInspection; result?: ToolResult };

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
  const stop = new AbortController();
  const ctx: CallContext = { root: options.root, signal: AbortSignal.any([options.signal, stop.signal]) };
  let fatal: FatalToolError | undefined;
  const step: StepCall[] = [];
  const announced = new Set<number>();
  // Each call is inspected once, just before the scheduler places it: after every earlier write has run,
  // so a write's preview shows what it will change now.
  const checked: Checked[] = [];
  const announce = (index: number) => {
    if (announced.has(index)) return;
    announced.add(index);
    const call = calls[index];
    const inspection = checked[index]?.inspection;
    options.onEvent({
      type: "tool_call",
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      summary: inspection?.summary,
    });
  };
  const onFatal = (error: FatalToolError): CallOutcome => {
    fatal ??= error;
    // Stopped a moment later, so this call reports the reason rather than being abandoned as cancelled.
    setTimeout(() => stop.abort(), 0);
    return { content: `tern stopped: ${error.message}`, error: { kind: "internal" }, executed: false };
  };
  const notRun = (): CallOutcome => {
    const content = fatal ? `not run: tern stopped (${fatal.message})` : CANCELLED;
    return { content, error: { kind: "cancelled" }, executed: false };
  };
  await scheduleCalls<ToolCall, CallOutcome>(calls, {
    isReadOnly: async (call, index) => {
      if (fatal) return false;
      try {
        checked[index] = await check(call, options, ctx);
      } catch (error) {
        if (!(error instanceof FatalToolError)) throw error;
        checked[index] = { call, result: onFatal(error) };
      }
      return checked[index].inspection?.effect === "read";
    },
    run: async (_call, index) => {
      if (fatal) return notRun();
      try {
        return await runOneCall(checked[index], options, ctx, () => stop.abort(), () => announce(index));
      } catch (error) {
        if (error instanceof FatalToolError) return onFatal(error);
        throw error;
      }
    },
    cancelled: notRun,
    onSettled: (settled, call, index) => {
      announce(index);
      const hidden = countHidden(settled.content);
      // Text that hides itself from a reader is removed for the model; the human is told how much.
      const result = hidden === 0
        ? settled
        : { ...settled, details: { ...settled.details, hiddenCharacters: hidden } };
      const isError = result.error !== undefined;
      options.onEvent({
        type: "tool_result",
        id: call.id,
        name: call.name,
        content: result.content,
        isError,
        errorKind: result.error?.kind,
        details: result.details,
      });
      conversation.append({
        kind: "tool_result",
        callId: call.id,
        name: call.name,
        content: result.content,
        isError,
        errorKind: result.error?.kind,
        details: result.details,
      });
      step.push({ ...call, isError, errorKind: result.error?.kind, executed: result.executed });
    },
    signal: ctx.signal,
  });
  return { step, cancelled: ctx.signal.aborted && fatal === undefined, fatal };
}

/** Validates and inspects a call; a call that cannot run gets its error result instead. */
async function check(call: ToolCall, options: LoopOptions, ctx: CallContext): Promise<Checked> {
  const prepared = options.registry.prepare(call);
  if (!("tool" in prepared)) return { call, result: prepared };
  const inspected = await inspectPrepared(prepared, ctx);
  return "effect" in inspected ? { call, prepared, inspection: inspected } : { call, result: inspected };
}

async function runOneCall(
  checked: Checked,
  options: LoopOptions,
  ctx: CallContext,
  abortTurn: () => void,
  announce: () => void,
): Promise<CallOutcome> {
  announce();
  // Bad arguments and failed dry runs count as executed: a model stuck on them is noticed.
  if (checked.result) return { ...checked.result, executed: checked.result.error?.kind !== "internal" };
  const inspection = checked.inspection!;
  if (inspection.effect !== "read") {
    const decision = await options.approve({ call: checked.call, inspection });
    if (!decision.allow && decision.abort) abortTurn();
    if (!decision.allow) return { content: decision.reason, error: { kind: "denied" }, executed: false };
    if (ctx.signal.aborted) return { content: CANCELLED, error: { kind: "cancelled" }, executed: false };
  }
  options.onEvent({
    type: "tool_start",
    id: checked.call.id,
    name: checked.call.name,
    effect: inspection.effect,
  });
  const result = await runPrepared(checked.prepared!, ctx);
  // What a cancelled tool produced before it stopped is still worth showing the model next turn.
  if (options.signal.aborted) {
    return {
      ...result,
      content: `${CANCELLED}\n${result.content}`,
      error: { kind: "cancelled" },
      executed: true,
    };
  }
  return { ...result, executed: true };
}
