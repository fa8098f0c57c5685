/** Which model a resumed conversation continues on: the last `model_change` in its log. */
import type { ModelRequest } from "../config/config.ts";
import { CUSTOM_LABEL } from "../config/providers.ts";
import type { Entry } from "./conversation.ts";
import type { ModelInfo } from "./session_model.ts";

/** A model to move to, and its words for a notice when it cannot be reached. */
export interface ResumedModel {
  /** Absent when the model cannot be restored; `why` says so. */
  request?: ModelRequest;
  describe: string;
  why?: string;
}

/**
 * The model the log ended on, as a switch request from `current`; null when it is the current one or the log
 * never changed model. A custom endpoint is never taken from the log (a session file names no URL to send
 * a key to): only its model is kept, and only while tern runs on a custom endpoint again.
 */
export function resumedModel(entries: readonly Entry[], current: ModelInfo): ResumedModel | null {
  const last = entries.findLast((entry) => entry.kind === "model_change");
  if (last?.kind !== "model_change") return null;
  const describe = `${last.model} via ${last.endpoint}`;
  if (last.provider === CUSTOM_LABEL) {
    if (current.provider !== CUSTOM_LABEL) {
      return { describe, why: "a custom endpoint is only used when given at start (--base-url)" };
    }
    return last.model === current.model ? null : { request: { model: last.model }, describe };
  }
  if (last.provider === current.provider && last.model === current.model) return null;
  return { request: { provider: last.provider, model: last.model }, describe };
}
