/** Per-task budgets (model requests, tokens, wall-clock) and the instruction for an honest partial answer. */
import type { Usage } from "../../llm/types.ts";
import { addUsage } from "./model_call.ts";
import { TaskStop } from "../../tools/tool.ts";

/** Which budget ran out. `time_budget` is new: ExitReason in events.ts must gain it. */
export type BudgetReason = "max_turns" | "token_budget" | "time_budget";

/** Why a task stops early and gets the tool-less finalisation call. */
export type EarlyStopReason = BudgetReason | "runaway";

/** The limits of one task; each is off when undefined. */
export interface BudgetLimits {
  /** Model requests (`--max-turns`). */
  maxTurns?: number;
  /** Total tokens over all the task's model calls, prompts included (`--token-budget`). */
  tokenBudget?: number;
  /** Wall-clock milliseconds since the task started. */
  timeLimitMs?: number;
}

/**
 * Counts one task's model requests, tokens and time, and says which limit tripped. The loop asks
 * `exceeded()` before each model request; the finalisation call after a trip is not counted against it
 * (it is the one request allowed past the budget, so the user gets an account instead of silence).
 * Time is also watched while a step runs: `deadline()` aborts a running command or model call at the limit.
 * Sub-agents' tokens count too (`recordChildUsage`): a sub-agent's own budget has the task's as `parent`, and
 * stops when either is used up.
 */
export class TaskBudget {
  readonly #limits: BudgetLimits;
  readonly #now: () => number;
  readonly #startedAt: number;
  readonly #parent?: TaskBudget;
  #turns = 0;
  #tokens = 0;
  #childUsage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  #timedOut = false;

  constructor(limits: BudgetLimits, options: { now?: () => number; parent?: TaskBudget } = {}) {
    this.#limits = limits;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
    this.#parent = options.parent;
  }

  /** Adds one of a sub-agent's model calls: its tokens count toward this task's budget and usage. */
  recordChildUsage(usage: Usage): void {
    this.#tokens += usage.totalTokens;
    this.#childUsage = addUsage(this.#childUsage, usage);
  }

  /** What the task's sub-agents used, summed. */
  get childUsage(): Usage {
    return this.#childUsage;
  }

  /** Tokens left under --token-budget (undefined without one). */
  get tokensLeft(): number | undefined {
    const { tokenBudget } = this.#limits;
    return tokenBudget === undefined ? undefined : Math.max(0, tokenBudget - this.#tokens);
  }

  /** Model requests made so far. */
  get turns(): number {
    return this.#turns;
  }

  /** Total tokens reported so far. */
  get tokens(): number {
    return this.#tokens;
  }

  /** Milliseconds since the task started. */
  get elapsedMs(): number {
    return this.#now() - this.#startedAt;
  }

  /** Records that a model request is about to be made. */
  recordRequest(): void {
    this.#turns++;
  }

  /** Adds one call's usage (a call without usage reports adds nothing). */
  recordUsage(usage: Usage | undefined): void {
    if (usage) this.#tokens += usage.totalTokens;
  }

  /**
   * A signal that fires when the time limit is reached (its reason a TaskStop naming the limit), so a
   * running command or model call stops there; `stop()` clears the timer. Never fires without a limit.
   */
  deadline(): { signal: AbortSignal; stop(): void } {
    const controller = new AbortController();
    const { timeLimitMs } = this.#limits;
    if (timeLimitMs === undefined) return { signal: controller.signal, stop: () => {} };
    const stop = () => {
      this.#timedOut = true;
      const words = `stopped: the task's time limit of ${seconds(timeLimitMs)} (--time-limit) was reached`;
      controller.abort(new TaskStop(words));
    };
    const timer = setTimeout(stop, Math.max(0, timeLimitMs - this.elapsedMs));
    return { signal: controller.signal, stop: () => clearTimeout(timer) };
  }

  /** The first limit reached, in the order turns, tokens, time; undefined while all are within bounds. */
  exceeded(): BudgetReason | undefined {
    const { maxTurns, tokenBudget, timeLimitMs } = this.#limits;
    if (maxTurns !== undefined && this.#turns >= maxTurns) return "max_turns";
    if (tokenBudget !== undefined && this.#tokens >= tokenBudget) return "token_budget";
    if (timeLimitMs !== undefined && this.elapsedMs >= timeLimitMs) return "time_budget";
    if (this.#timedOut) return "time_budget";
    // A sub-agent stops when the task it works for has used up its tokens.
    if (this.#parent?.exceeded() === "token_budget") return "token_budget";
    return undefined;
  }

  /** True once the deadline fired: what was running then was stopped by the time limit, not the user. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** One line for a notice: which limit tripped, e.g. "the limit of 20 model requests (--max-turns) was reached". */
  describe(reason: BudgetReason): string {
    const { maxTurns, tokenBudget, timeLimitMs } = this.#limits;
    switch (reason) {
      case "max_turns":
        return `the limit of ${maxTurns} model requests (--max-turns) was reached`;
      case "token_budget":
        if (this.#parent && (tokenBudget === undefined || this.#tokens < tokenBudget)) {
          return `the main task's ${this.#parent.describe("token_budget")}`;
        }
        return `the token budget of ${tokenBudget} (--token-budget) was used up: ${this.#tokens} tokens`;
      case "time_budget":
        return `the time limit of ${seconds(timeLimitMs ?? 0)} was reached after ${seconds(this.elapsedMs)}`;
    }
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

const WHY: Record<EarlyStopReason, string> = {
  max_turns: "the task reached its limit of model requests",
  token_budget: "the task used up its token budget",
  time_budget: "the task reached its time limit",
  runaway: "the same action or error repeated too many times in a row without progress",
};

/**
 * The message appended to the history for the one extra model call made without tools after an early
 * stop. It asks for an honest account, never a claim of completion. It is a user-role message (some
 * providers reject a system message after the first), marked as coming from tern, not from the user.
 */
export function finalisationText(reason: EarlyStopReason): string {
  const content = `[tern] Stop here: ${WHY[reason]}. No more tools can be called in this task. ` +
    "Write a short report for the user, with these four headings:\n" +
    "Done: what you changed or found so far.\n" +
    "Verified: what you actually checked (tests run, output seen), and what you did not check.\n" +
    "Not done or blocked: what remains, and what stopped you.\n" +
    "Suggested next step: one concrete action for the user or for the next task.\n" +
    "Do not claim the task is complete: it was stopped early, and the answer will be shown as partial.";
  return content;
}
