/** Which model a resumed conversation continues on: the last `model_change` in its log. */
import type { ModelRequest } from "../config/provider_switch.ts";
import { CUSTOM_LABEL } from "../config/providers.ts";
import type { Entry } from "./log/conversation.ts";
import type { ModelInfo } from "./model_setup.ts";
import type { SessionModels } from "./models.ts";
import type { Config } from "../config/config.ts";

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
  // A custom endpoint given now (--base-url) is where the user wants requests to go: it is not left behind.
  if (current.provider === CUSTOM_LABEL) {
    return {
      describe,
      why: "tern runs on the custom endpoint it was given (/model PROVIDER/MODEL switches)",
    };
  }
  return { request: { provider: last.provider, model: last.model }, describe };
}

/**
 * The configuration a resumed conversation continues on, or null to stay: the model its log ended with when
 * it can be reached (else `onNotice` says why not), or the current one when the command line named a model
 * (`keepStartModel`: logged as a change, since the log ended elsewhere).
 */
export async function resumedConfig(
  entries: readonly Entry[],
  models: SessionModels,
  options: { keepStartModel?: boolean; onNotice?: (message: string) => void },
): Promise<Config | null> {
  const wanted = resumedModel(entries, models.setup.info);
  if (wanted === null) return null;
  if (options.keepStartModel) return models.config;
  const stay = (why: string) => {
    options.onNotice?.(
      `the session ended on ${wanted.describe}; continuing on ${models.setup.info.model}: ${why}`,
    );
    return null;
  };
  if (!wanted.request) return stay(wanted.why ?? "");
  try {
    return await models.resolve(wanted.request);
  } catch (error) {
    return stay(error instanceof Error ? error.message : String(error));
  }
}
