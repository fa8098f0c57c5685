/** The search back-end of a session, from the user's own environment; a main session says what is wrong. */
import { type SearchBackend, searchBackendFromEnv } from "../tools/web/search_backends.ts";
import type { AgentSessionOptions } from "./agent_session_options.ts";

/** The wires that have a search tool the provider runs. */
const SEARCHING_WIRES = ["anthropic", "responses"];

/**
 * The back-end web_search uses in this session ("provider": the model's provider runs it), or undefined
 * (then the tool is not offered).
 */
export function webSearchSetup(options: AgentSessionOptions): SearchBackend | "provider" | undefined {
  const { backend, problem } = searchBackendFromEnv(options.env);
  const say = (text: string) => !options.child && options.onNotice?.(text);
  if (problem) say(problem);
  if (backend === "provider" && !SEARCHING_WIRES.includes(options.config.api)) {
    say(
      `TERN_WEB_SEARCH=provider needs a model on the Anthropic or Responses wire (this one speaks ` +
        `${options.config.api}); web_search is not offered`,
    );
    return undefined;
  }
  return backend;
}
