/**
 * The required-tool policy (`--require-tools`): the model must call the named tools in order, each until
 * one call of it succeeds, then chooses freely again. It makes small local models follow a procedure.
 */
import type { ToolChoice } from "../../llm/types.ts";
import type { StepCall } from "./runaway.ts";

/** Tracks which required tool is next; pure, one per task. */
export class RequiredTools {
  readonly #names: readonly string[];
  #next = 0;

  /** `names` in the order they must succeed; none makes the policy a no-op. */
  constructor(names: readonly string[] = []) {
    this.#names = names;
  }

  /**
   * The tool_choice of the next request: the next required tool by name; "auto" once all succeeded (so
   * the change shows in the request); undefined when nothing was required (requests stay as they were).
   */
  choice(): ToolChoice | undefined {
    if (this.#names.length === 0) return undefined;
    const name = this.#names[this.#next];
    return name === undefined ? "auto" : { name };
  }

  /** Moves on past each required tool a call of which ran and succeeded in this step, in order. */
  observe(step: readonly StepCall[]): void {
    for (const call of step) {
      if (call.name === this.#names[this.#next] && call.executed && !call.isError) this.#next++;
    }
  }
}

/** The names in `required` that no tool in `known` has, for one usage error naming them all. */
export function unknownTools(required: readonly string[], known: readonly string[]): string[] {
  return required.filter((name) => !known.includes(name));
}
