/** The plan as the REPL shows it when it changes: compact, one line a step, done steps ticked. */
import type { AgentEvent } from "../../agent/events.ts";
import type { Paint } from "./tool_lines.ts";
import { terminalSafe } from "./terminal_safe.ts";

const MARKS = { done: "✔", in_progress: "▸", pending: "○" } as const;

/** "Plan · 1/3 done", then the steps. */
export function planLines(event: Extract<AgentEvent, { type: "plan" }>, paint: Paint): string[] {
  const done = event.steps.filter((step) => step.status === "done").length;
  const head = `${paint("bold", "Plan")} ${paint("dim", `· ${done}/${event.steps.length} done`)}`;
  return [
    head,
    ...event.steps.map(({ step, status }) => {
      const text = terminalSafe(step);
      const mark = MARKS[status];
      if (status === "done") return `  ${paint("green", mark)} ${paint("dim", text)}`;
      if (status === "in_progress") return `  ${paint("cyan", mark)} ${paint("bold", text)}`;
      return `  ${mark} ${text}`;
    }),
  ];
}
