/** update_plan: the model keeps a short, visible plan of its steps (pending, in progress, done). */

import { type Tool, ToolError } from "./tool.ts";

/** Where a step stands. */
export type PlanStatus = "pending" | "in_progress" | "done";

/** One step of the plan. */
export interface PlanStep {
  step: string;
  status: PlanStatus;
}

/** The whole plan as the model last sent it. */
export interface PlanUpdate {
  steps: PlanStep[];
}

/** Most steps one plan may hold: a plan is a short list, not a log. */
export const MAX_PLAN_STEPS = 30;

const MAX_STEP_CHARS = 200;

const description = "Set the plan the user sees, a step per line: [ ] to do, [>] doing (max 1), [x] done.";

const parameters = {
  type: "object",
  properties: { plan: { type: "string" } },
  required: ["plan"],
  additionalProperties: false,
};

/** Arguments of update_plan, as validated against its schema: a checklist, one step per line. */
export type UpdatePlanArgs = { plan: string };

/**
 * A checklist string, not an array of objects: the call is repeated in every later request, and
 * `[x] step` costs a quarter of `{"step":"step","status":"done"}`. A Markdown bullet before the mark is
 * allowed, as models write checklists that way.
 */
const MARKED_LINE = /^\s*(?:[-*]\s+)?\[([ >xX])\]\s*(.*)$/;

const STATUS_OF_MARK: Record<string, PlanStatus> = {
  " ": "pending",
  ">": "in_progress",
  x: "done",
  X: "done",
};

/** The plan's steps, one per non-blank line; throws a ToolError naming the first line without a mark. */
function parseChecklist(plan: string): PlanStep[] {
  const lines = plan.split(/\r?\n/).filter((line) => line.trim() !== "");
  return lines.map((line, index) => {
    const marked = MARKED_LINE.exec(line);
    if (!marked) {
      throw new ToolError(
        `update_plan: step ${index + 1} ("${line.trim().slice(0, 40)}") has no status mark; start each ` +
          'line with "[ ] " (pending), "[>] " (in progress) or "[x] " (done).',
        "bad_arguments",
      );
    }
    return { step: marked[2].replace(/\s+/g, " ").trim(), status: STATUS_OF_MARK[marked[1]] };
  });
}

/** Checks what the schema cannot say; throws a ToolError worded for the model. */
function checkPlan(args: UpdatePlanArgs): PlanUpdate {
  const steps = parseChecklist(args.plan);
  if (steps.length === 0) {
    throw new ToolError(
      'update_plan: the plan has no steps; send one line per step, e.g. "[>] Read the code".',
    );
  }
  if (steps.length > MAX_PLAN_STEPS) {
    throw new ToolError(`update_plan: ${steps.length} steps; keep the plan to ${MAX_PLAN_STEPS} or fewer.`);
  }
  const empty = steps.findIndex((entry) => entry.step === "");
  if (empty >= 0) throw new ToolError(`update_plan: step ${empty + 1} has no text; say what it does.`);
  const long = steps.findIndex((entry) => entry.step.length > MAX_STEP_CHARS);
  if (long >= 0) {
    throw new ToolError(
      `update_plan: step ${long + 1} is longer than ${MAX_STEP_CHARS} characters; shorten it.`,
    );
  }
  const running = steps.filter((entry) => entry.status === "in_progress").length;
  if (running > 1) {
    throw new ToolError(
      `update_plan: ${running} steps are in progress ("[>]"); mark only the step you are working on now.`,
      "bad_arguments",
    );
  }
  return { steps };
}

/** The update_plan tool; `onPlan` receives each accepted plan (the session shows and keeps it). */
export function createUpdatePlanTool(onPlan: (plan: PlanUpdate) => void): Tool<UpdatePlanArgs, PlanUpdate> {
  return {
    name: "update_plan",
    description,
    parameters,
    inspect: (args) => {
      const plan = checkPlan(args);
      const done = plan.steps.filter((entry) => entry.status === "done").length;
      return Promise.resolve({
        effect: "read",
        paths: [],
        summary: `${done}/${plan.steps.length} done`,
        plan,
      });
    },
    run: (args, _ctx, plan) => {
      const accepted = plan ?? checkPlan(args);
      onPlan(accepted);
      return Promise.resolve({ content: "Plan updated.", details: { quiet: true } });
    },
  };
}
