/** Local OpenAI-compatible servers (Ollama, llama.cpp, LM Studio, vLLM): found when no API key is set. */
import { LOCAL_PROVIDERS, type ProviderPreset } from "./providers.ts";

/** A local OpenAI-compatible server that may be running. */
export interface LocalCandidate {
  provider: ProviderPreset;
  baseUrl: string;
}

/** A local server that answered, with the model ids it listed (possibly none). */
export interface LocalServer extends LocalCandidate {
  models: string[];
}

/** Finds a running local server, or null; `loadConfig` calls it only when no key is set. */
export type ProbeLocal = () => Promise<LocalServer | null>;

/** The default probe targets: Ollama (11434), llama.cpp (8080), LM Studio (1234), vLLM (8000) on 127.0.0.1. */
export const LOCAL_CANDIDATES: readonly LocalCandidate[] = LOCAL_PROVIDERS.map((provider) => ({
  provider,
  baseUrl: provider.baseUrl,
}));

/**
 * Asks each candidate's `GET {baseUrl}/models` in parallel, each within `timeoutMs`, and returns the first
 * candidate (in list order) that answered 2xx with an OpenAI-style `{data: [...]}` list; otherwise null.
 * The list shape is required so an unrelated web server on port 8080 is not mistaken for a model server.
 */
export async function probeLocalServers(
  candidates: readonly LocalCandidate[] = LOCAL_CANDIDATES,
  options: { timeoutMs?: number } = {},
): Promise<LocalServer | null> {
  const timeoutMs = options.timeoutMs ?? 300;
  const answers = await Promise.all(candidates.map((candidate) => listModels(candidate.baseUrl, timeoutMs)));
  const index = answers.findIndex((models) => models !== null);
  return index < 0 ? null : { ...candidates[index], models: answers[index]! };
}

/** The model ids a server lists, or null when it does not answer like an OpenAI-compatible server in time. */
async function listModels(baseUrl: string, timeoutMs: number): Promise<string[] | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, "")}/models`, { signal: controller.signal });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const body: unknown = await response.json();
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return null;
    return data.map((entry) => entry?.id).filter((id): id is string => typeof id === "string" && id !== "");
  } catch {
    return null; // refused, timed out or not JSON: no usable server there
  } finally {
    clearTimeout(timer);
  }
}
