/**
 * Plan mode's words for the model (the note a prompt carries while plan mode is on, the refusal of a call
 * that is not a read; the approval gate enforces the mode), and the plan a session keeps with update_plan.
 */
import { createUpdatePlanTool, type PlanUpdate } from "../../tools/update_plan.ts";
import type { Tool } from "../../tools/tool.ts";
import type { AgentEvent } from "../events.ts";

/** The user's prompt as sent in plan mode: with a note saying what the mode allows and how to end. */
export function planModeTask(text: string): string {
  return `${text}\n\n[tern: plan mode is on. Explore with read-only tools only; edits and commands are ` +
    "refused. Change nothing. End with your plan as the answer: the steps, the files to change and how to " +
    "check the result. The user will accept it or ask you to keep planning.]";
}

/** What the model reads when plan mode refuses a call that is not a read. */
export function planModeRefusal(tool: string): string {
  return `${tool} was not run: plan mode is on, so only read-only tools run. Do not retry it; finish ` +
    "exploring, then present your plan (the steps, the files to change) as your answer for the user to accept.";
}

/** What the main session is told when the user accepts the plan and leaves plan mode. */
export const PLAN_ACCEPTED = "The user accepted your plan. Carry it out now, step by step.";

/** The plan of one conversation: update_plan replaces it; each change is told as a `plan` event. */
export class PlanKeeper {
  #current: PlanUpdate | null = null;

  constructor(readonly emit: (event: AgentEvent) => void) {}

  /** The plan now, or null. */
  get current(): PlanUpdate | null {
    return this.#current;
  }

  /** Forgets the plan (a new conversation). */
  clear(): void {
    this.#current = null;
  }

  /** The update_plan tool over this plan; a plan sent again unchanged is not told again. */
  tool(): Tool {
    return createUpdatePlanTool((plan) => {
      if (JSON.stringify(plan) === JSON.stringify(this.#current)) return;
      this.#current = plan;
      this.emit({ type: "plan", ...plan });
    });
  }
}
