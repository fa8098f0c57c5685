/**
 * The live lines of running sub-agents: one a child, its agent and job, what it does now and its turn,
 * redrawn in place under the calls that started them; a child's line goes when it ends.
 */
import type { AgentEvent } from "../../agent/events.ts";
import { fit, type Paint } from "./tool_lines.ts";
import { terminalSafe } from "./terminal_safe.ts";

type ChildEvent = Extract<AgentEvent, { type: "child_start" | "child_event" }>;

interface Child {
  agent: string;
  description: string;
  turn: number;
  doing: string;
}

/** The running children, in the order they started. */
export class ChildBoard {
  readonly #children = new Map<string, Child>();

  /** True while a child runs. */
  get active(): boolean {
    return this.#children.size > 0;
  }

  /** Takes one child event; true when the lines changed (a child's text deltas change nothing). */
  handle(event: ChildEvent): boolean {
    if (event.type === "child_start") {
      const { agent, description } = event;
      this.#children.set(event.childId, { agent, description, turn: 0, doing: "starting" });
      return true;
    }
    const child = this.#children.get(event.childId);
    if (child === undefined) return false;
    const inner = event.event;
    switch (inner.type) {
      case "model_start":
        [child.turn, child.doing] = [inner.turn, "thinking"];
        return true;
      case "tool_call":
        child.doing = `${inner.name} ${inner.summary ?? ""}`.trim();
        return true;
      case "final":
        this.#children.delete(event.childId);
        return true;
      default:
        return false;
    }
  }

  /** One line a child, each cut to `width` cells. */
  lines(width: number, paint: Paint): string[] {
    const room = Math.max(10, width - 4);
    return [...this.#children.values()].map((child) => {
      const text = `${child.agent} · ${child.description} · ${child.doing} · turn ${child.turn}`;
      return `  ${paint("cyan", "↳")} ${paint("dim", fit(terminalSafe(text.replace(/\s+/g, " ")), room))}`;
    });
  }
}
