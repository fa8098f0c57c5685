/**
 * web_search: search the web through the back-end the user configured (SearXNG, Brave, Tavily or Exa; see
 * web/search_backends.ts) and return title, URL and snippet per result. Offered only when one is
 * configured. The query goes to that back-end alone, which the user chose, so a search does not ask; the
 * pages it finds are read with web_fetch, under web_fetch's own guards (public addresses, asks per host).
 */
import { parseResults, type SearchBackend, type SearchHit, searchRequest } from "./web/search_backends.ts";
import type { CallInspection, Tool, ToolContext, ToolResult } from "./tool.ts";
import { stopWords, ToolError } from "./tool.ts";

/** Time allowed for one search, in milliseconds. */
export const SEARCH_TIMEOUT_MS = 20_000;
/** Largest answer read from a back-end, in bytes. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 10;
/** Characters of a snippet kept: enough to judge a page, not to read it. */
const SNIPPET_CHARS = 300;

const parameters = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1, maxLength: 400 },
    max_results: { type: "integer", minimum: 1, maximum: MAX_RESULTS },
  },
  required: ["query"],
  additionalProperties: false,
};

/** Arguments of web_search, as validated against its schema. */
export type WebSearchArgs = { query: string; max_results?: number };

/** Builds web_search for `backend`. */
export function createWebSearchTool(backend: SearchBackend): Tool<WebSearchArgs> {
  const inspect = (args: WebSearchArgs): Promise<CallInspection> =>
    Promise.resolve({ effect: "read", paths: [], summary: args.query.slice(0, 200) });
  const run = async (args: WebSearchArgs, ctx: ToolContext): Promise<ToolResult> => {
    const count = args.max_results ?? DEFAULT_RESULTS;
    const started = performance.now();
    const body = await askBackend(backend, args.query, count, ctx.signal);
    const hits = parseResults(backend.name, body);
    if (hits === undefined) {
      throw new ToolError(`${backend.name} answered without a result list; try again later`, "io");
    }
    const shown = hits.filter((hit) => /^https?:\/\//i.test(hit.url)).slice(0, count);
    const details = {
      durationMs: Math.round(performance.now() - started),
      shown: { from: shown.length ? 1 : 0, to: shown.length, of: shown.length, unit: "results" },
    };
    return { content: redact(listing(args.query, backend, shown), backend), details };
  };
  return {
    name: "web_search",
    description: `Search the web (${backend.name}): title, URL, snippet per result; read one with web_fetch.`,
    parameters,
    inspect,
    run,
  };
}

/**
 * web_search run by the provider (`TERN_WEB_SEARCH=provider`): Anthropic's web search tool, or the Responses
 * API's. The wire declares it; the model's searches and their results stay in the provider's answer, so a
 * call that reaches tern is a mistake, answered as one.
 */
export function createProviderSearchTool(): Tool<Record<string, unknown>> {
  return {
    name: "web_search",
    description: "Search the web (run by the provider).",
    parameters: { type: "object", properties: {}, additionalProperties: true },
    server: "web_search",
    inspect: () => Promise.resolve({ effect: "read", paths: [], summary: "web search" }),
    run: () => {
      throw new ToolError(
        "web_search runs on the provider's side; search there, or answer without it",
        "refused",
      );
    },
  };
}

/** The results as numbered entries, each title, URL and snippet on its own lines. */
function listing(query: string, backend: SearchBackend, hits: SearchHit[]): string {
  if (hits.length === 0) return `No results for "${query}" (${backend.name}); try other words.`;
  const entries = hits.map((hit, i) => {
    const snippet = clean(hit.snippet);
    const cut = snippet.length > SNIPPET_CHARS ? `${snippet.slice(0, SNIPPET_CHARS)}…` : snippet;
    return `${i + 1}. ${clean(hit.title) || "(no title)"}\n   ${hit.url}${cut ? `\n   ${cut}` : ""}`;
  });
  return `Results for "${query}" (${backend.name}):\n${entries.join("\n")}`;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** Snippets come with markup (Brave's <strong>) and entities: plain text on one line. */
function clean(text: string): string {
  return text.replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

/** A back-end never gets its key back to the model, even where an answer echoes it. */
function redact(text: string, backend: SearchBackend): string {
  return backend.key ? text.replaceAll(backend.key, "[redacted]") : text;
}

/** The back-end's parsed JSON answer; a failure is a ToolError that says what to do. */
async function askBackend(backend: SearchBackend, query: string, count: number, cancel: AbortSignal) {
  const signal = AbortSignal.any([cancel, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]);
  let response: Response;
  try {
    // No redirects: a key sent in a header must not follow one to another host.
    response = await fetch(searchRequest(backend, query, count), { signal, redirect: "manual" });
  } catch (error) {
    if (cancel.aborted) throw new ToolError(stopWords(cancel), "cancelled");
    if (signal.aborted) throw new ToolError(`${backend.name} gave no answer within 20 s`, "timeout");
    const { message, cause } = error as Error;
    const why = cause instanceof Error ? cause.message : message;
    throw new ToolError(redact(`could not reach ${backend.name}: ${why}`, backend), "io");
  }
  const text = await cappedText(response).catch((error): never => {
    if (error instanceof ToolError) throw error;
    if (cancel.aborted) throw new ToolError(stopWords(cancel), "cancelled");
    throw new ToolError(`${backend.name} stopped answering before the end`, "timeout");
  });
  if (!response.ok) throw new ToolError(statusWords(backend, response.status), "io");
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolError(`${backend.name} answered with something that is not JSON`, "io");
  }
}

function statusWords(backend: SearchBackend, status: number): string {
  const hint = status === 401 || status === 403
    ? backend.name === "searxng"
      ? "the instance refuses JSON answers (enable `json` under search.formats in its settings.yml)"
      : "the key was refused; check it"
    : status === 429
    ? "the rate limit or quota is reached; wait, or answer without searching"
    : status >= 300 && status < 400
    ? "it redirected; set its final URL"
    : "the service failed; try again later";
  return `${backend.name} answered HTTP ${status}: ${hint}`;
}

/** The body as text, at most MAX_ANSWER_BYTES of it (a longer answer is not a search answer). */
async function cappedText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_ANSWER_BYTES) throw new ToolError("the search answer was over 1 MB; not read", "io");
      chunks.push(value);
    }
  } finally {
    await reader?.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.length), 0);
  return new TextDecoder().decode(bytes);
}
