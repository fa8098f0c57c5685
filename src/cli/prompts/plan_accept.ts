/**
 * After a task in plan mode: the human accepts the plan (leaving plan mode for ask or edits, and the model
 * carries it out at once) or keeps planning (plan mode stays; the next prompt says what to change).
 */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { TaskResult } from "../../agent/loop/loop.ts";
import { PLAN_ACCEPTED } from "../../agent/policy/plan_mode.ts";
import type { Renderer } from "../render/renderer.ts";

/** What the question needs from the REPL. */
export interface PlanAcceptContext {
  session: AgentSession;
  screen: Renderer;
  ask(question: string): Promise<string | null>;
  runTask(text: string): Promise<void>;
}

const QUESTION = "Accept the plan? [a] yes, ask before edits · [e] yes, edits run · [k] keep planning: ";

/** True when the task ended with a plan to accept: plan mode, done, and an answer. */
export function presentsPlan(session: AgentSession, result: TaskResult): boolean {
  return session.mode === "plan" && result.exitReason === "done" && result.text.trim() !== "";
}

/** Asks once; "a" or "e" leaves plan mode and runs the plan, anything else keeps planning. */
export async function offerPlan(ctx: PlanAcceptContext): Promise<void> {
  const answer = (await ctx.ask(QUESTION))?.trim().toLowerCase() ?? "";
  if (answer !== "a" && answer !== "e") {
    ctx.screen.print("Still planning: say what to change, or Shift+Tab to leave plan mode.", "dim");
    return;
  }
  ctx.session.mode = answer === "a" ? "ask" : "edits";
  ctx.screen.print(`Plan accepted; approval mode is now ${ctx.session.mode}.`, "green");
  await ctx.runTask(PLAN_ACCEPTED);
}
