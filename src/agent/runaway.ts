/**
 * The runaway guard: notices a model repeating itself across tool steps, reminds it once, then stops the
 * loop. Pure: fed after each step with what was executed, it answers what the loop should do.
 */

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

/** One tool call of a step, with its result and whether it actually ran. */
export interface StepCall {
  id: string;
  name: string;
  /** The raw JSON text of the arguments, as the model sent it. */
  arguments: string;
  content: string;
  isError: boolean;
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
        const errorClass = classifyError(call.content);
        if (!errorKeys.has(errorClass)) errorKeys.set(errorClass, call);
      }
    }
    const hits = [
      ...advance(this.#actions, actionKeys, (call) => clip(`${call.name} ${call.arguments}`.trim())),
      ...advance(this.#errors, errorKeys, (_call, key) => `the error "${clip(key)}"`),
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

/** Error classes, most specific first: the first pattern that matches names the class. */
const ERROR_CLASSES: [string, RegExp][] = [
  ["timeout", /timed out|time-?out|ETIMEDOUT|deadline exceeded/i],
  ["rate limit", /rate.?limit|too many requests|\b429\b/i],
  [
    "network",
    /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|network (error|is unreachable)|connection (refused|reset)|could not resolve host/i,
  ],
  ["auth", /unauthori[sz]ed|authentication|invalid api key|\b401\b/i],
  ["permission", /permission denied|EACCES|EPERM|not permitted|access denied|outside the project root/i],
  ["not found", /not found|no such file|ENOENT|does not exist|unknown tool/i],
  [
    "bad arguments",
    /not valid JSON|must be a JSON object|field "[^"]*" is required|unknown field|must be .+, got/i,
  ],
];

/** How much of an error result is searched for its class: tool errors say what they are up front. */
const HEAD_CHARS = 300;

/**
 * The class of a failed tool result: timeout, rate limit, network, auth, permission, not found, bad
 * arguments, non-zero exit code; otherwise the error text itself (whitespace collapsed, clipped). A
 * command's own trailer ("[exit code 2]", "[timed out after …]") decides for command output, because the
 * output itself is arbitrary text in which any of the words above may appear.
 */
export function classifyError(content: string): string {
  const text = content.trimEnd();
  if (/\[timed out after [^\]]*\]$/.test(text)) return "timeout";
  if (/\[exit code [1-9]\d*\]$/.test(text)) return "non-zero exit code";
  const head = text.slice(0, HEAD_CHARS);
  for (const [name, pattern] of ERROR_CLASSES) if (pattern.test(head)) return name;
  return head.trim().replace(/\s+/g, " ");
}
