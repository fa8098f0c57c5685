/** The search back-end of a session, from the user's own environment; a main session says what is wrong. */
import { type SearchBackend, searchBackendFromEnv } from "../tools/web/search_backends.ts";
import type { AgentSessionOptions } from "./session_options.ts";

/** The back-end web_search uses in this session, or undefined (then the tool is not offered). */
export function webSearchSetup(options: AgentSessionOptions): SearchBackend | undefined {
  const { backend, problem } = searchBackendFromEnv(options.env);
  if (problem && !options.child) options.onNotice?.(problem);
  return backend;
}
