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
  /** The call running now, if any. */
  running?: string;
  /** The last call it made, shown while the model thinks again. */
  last?: string;
  calls: number;
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
      this.#children.set(event.childId, { agent, description, turn: 0, calls: 0 });
      return true;
    }
    const child = this.#children.get(event.childId);
    if (child === undefined) return false;
    const inner = event.event;
    switch (inner.type) {
      case "model_start":
        child.turn = inner.turn;
        return true;
      case "tool_call":
        child.running = child.last = `${inner.name} ${inner.summary ?? ""}`.trim();
        child.calls++;
        return true;
      case "tool_result":
        child.running = undefined;
        return true;
      case "final":
        this.#children.delete(event.childId);
        return true;
      default:
        return false;
    }
  }

  /** Forgets child `id` (its task call has its result; a cancelled child may still be winding down). */
  end(id: string): void {
    this.#children.delete(id);
  }

  /** Forgets every child (the main task ended). */
  clear(): void {
    this.#children.clear();
  }

  /** One line a child, each cut to `width` cells. */
  lines(width: number, paint: Paint): string[] {
    const room = Math.max(10, width - 4);
    return [...this.#children.values()].map((child) => {
      const doing = child.running ??
        (child.turn === 0 ? "starting" : child.last ? `thinking (last: ${child.last})` : "thinking");
      const text = `${child.agent} · ${child.description} · turn ${child.turn} · ${doing}`;
      return `  ${paint("cyan", "↳")} ${paint("dim", fit(terminalSafe(text.replace(/\s+/g, " ")), room))}`;
    });
  }
}
