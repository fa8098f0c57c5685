/** The calls of a headless turn as its result names them: every denied call, and those nobody could approve. */
import type { AgentEvent } from "../../agent/events.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import type { PermissionDenial } from "./stream_json.ts";

/** A call refused for want of approval: its tool, its target, and the flag that would let it run. */
export interface RefusedCall {
  name: string;
  target: string;
  needs: string;
}

/** Collects, from a turn's events, the denied calls (for the result) and the refused ones (for the last line). */
export class CallLog {
  /** Every denied call (refused for want of approval, by a deny rule, or by the user). */
  readonly denials: PermissionDenial[] = [];
  /** Calls refused because nobody could approve them. */
  readonly refused: RefusedCall[] = [];
  readonly #targets = new Map<string, string>();

  handle(event: AgentEvent): void {
    if (event.type === "tool_call") this.#targets.set(event.id, event.summary ?? "");
    if (event.type !== "tool_result" || event.errorKind !== "denied") return;
    this.denials.push({ tool_name: event.name, tool_call_id: event.id, reason: event.content });
    const needs = event.details?.needs;
    if (needs) this.refused.push({ name: event.name, target: this.#targets.get(event.id) ?? "", needs });
  }
}

/**
 * One line for stderr: "2 calls were refused: edit_file src/a.ts, write_file b.txt; rerun with --approve
 * edits" (the strongest flag any of them needs; at most five named).
 */
export function refusedLine(refused: RefusedCall[]): string {
  const named = refused.slice(0, 5).map((call) => terminalSafe(`${call.name} ${clip(call.target)}`.trim()));
  const more = refused.length > named.length ? `, and ${refused.length - named.length} more` : "";
  const flag = refused.some((call) => call.needs === "--approve all") ? "--approve all" : refused[0].needs;
  const count = refused.length === 1 ? "1 call was refused" : `${refused.length} calls were refused`;
  return `${count}: ${named.join(", ")}${more}; rerun with ${flag}`;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
