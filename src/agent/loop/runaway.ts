/**
 * The runaway guard: notices a model repeating itself across tool steps, reminds it once, then stops the
 * loop. Pure: fed after each step with what was executed, it answers what the loop should do. Errors are
 * told apart by their kind, which the tool gives: never by reading the result's text.
 */
import type { ToolErrorKind } from "../../tools/tool.ts";

/** Consecutive steps with the same action or error class before the one reminder. */
export const REMINDER_AT = 3;
/** Consecutive steps with the same action or error class that stop the loop. */
export const STOP_AT = 5;

/**
 * Appended (outside the untrusted tool-result wrapper) to the result that reached REMINDER_AT. It speaks in
 * tern's voice, is about this task only, and asks for a change of approach rather than forbidding anything.
 */
export const RUNAWAY_REMINDER = "[tern reminder] This is the same action or the same error " +
  `${REMINDER_AT} times in a row. Repeating is not progress. Look at what you already have, then either ` +
  "change your approach and say what you expect to change, or say where you are stuck. This is a " +
  "temporary reminder for this task only, not a user preference: never save it to memory or notes.";

/** One tool call of a step, with how it ended and whether it actually ran. */
export interface StepCall {
  id: string;
  name: string;
  /** The raw JSON text of the arguments, as the model sent it. */
  arguments: string;
  isError: boolean;
  /** The tool's own word for the failure (not_found, timeout, exit_code, ...); absent on success. */
  errorKind?: ToolErrorKind;
  /**
   * False for calls refused by policy, denied by the user, or rejected before running (they do not count).
   * Calls with bad arguments did reach the tool registry and count as executed, so a model stuck on a bad
   * argument is noticed.
   */
  executed: boolean;
}

/** What the loop does after a step: nothing, append the reminder to one result, or stop. */
export type RunawayVerdict =
  | { action: "continue" }
  | { action: "remind"; callId: string; text: string }
  | { action: "stop"; reason: string };

/** A streak of consecutive steps sharing one key; `what` describes it for the stop reason. */
interface Streak {
  count: number;
  what: string;
}

/**
 * Counts, per action and per error class, how many consecutive steps contained it. A step's calls are
 * counted as a set: each distinct action (tool + canonical arguments) and each distinct error class in
 * the step extends its own streak by one, however often it occurs within that step; every streak whose key
 * is absent from the step ends. A step where nothing was executed (all denied or refused) is ignored:
 * it neither extends nor ends a streak. One guard per task.
 */
export class RunawayGuard {
  #actions = new Map<string, Streak>();
  #errors = new Map<string, Streak>();
  #reminded = false;

  /** Feeds one finished tool step; returns what the loop should do next. */
  observe(calls: StepCall[]): RunawayVerdict {
    const executed = calls.filter((call) => call.executed);
    if (executed.length === 0) return { action: "continue" };
    const actionKeys = new Map<string, StepCall>();
    const errorKeys = new Map<string, StepCall>();
    for (const call of executed) {
      const key = actionKey(call.name, call.arguments);
      if (!actionKeys.has(key)) actionKeys.set(key, call);
      if (call.isError) {
        const errorClass = call.errorKind ?? "error";
        if (!errorKeys.has(errorClass)) errorKeys.set(errorClass, call);
      }
    }
    const hits = [
      ...advance(this.#actions, actionKeys, (call) => clip(`${call.name} ${call.arguments}`.trim())),
      ...advance(this.#errors, errorKeys, (_call, key) => `the error kind "${key}"`),
    ];
    const stop = hits.find((hit) => hit.count >= STOP_AT);
    if (stop) return { action: "stop", reason: `${stop.what} repeated ${stop.count} times in a row` };
    const remind = hits.find((hit) => hit.count >= REMINDER_AT);
    if (remind && !this.#reminded) {
      this.#reminded = true;
      return { action: "remind", callId: remind.call.id, text: RUNAWAY_REMINDER };
    }
    return { action: "continue" };
  }
}

/** Extends the streaks of the keys present in this step, ends the others; returns the current counts. */
function advance(
  streaks: Map<string, Streak>,
  present: Map<string, StepCall>,
  describe: (call: StepCall, key: string) => string,
): { count: number; what: string; call: StepCall }[] {
  for (const key of [...streaks.keys()]) if (!present.has(key)) streaks.delete(key);
  const out = [];
  for (const [key, call] of present) {
    const streak = streaks.get(key) ?? { count: 0, what: describe(call, key) };
    streak.count++;
    streaks.set(key, streak);
    out.push({ count: streak.count, what: streak.what, call });
  }
  return out;
}

function clip(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 119)}…`;
}

/**
 * The identity of an action: tool name plus the arguments with object keys sorted at every depth, so key
 * order alone never makes a new action. Arguments that are not JSON compare as their raw text; empty
 * arguments equal `{}` (the registry treats them so).
 */
export function actionKey(name: string, args: string): string {
  const text = args.trim() === "" ? "{}" : args;
  try {
    return `${name} ${JSON.stringify(sortKeys(JSON.parse(text)))}`;
  } catch {
    return `${name} raw:${args}`;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}
