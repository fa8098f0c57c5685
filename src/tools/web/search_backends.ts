/**
 * The search back-ends web_search can use, each as one request and one parse of its documented JSON: a
 * SearXNG instance (`/search?format=json`), Brave (`/res/v1/web/search`, X-Subscription-Token), Tavily
 * (`POST /search`, a bearer key) and Exa (`POST /search`, x-api-key). Which one is in use comes from the
 * user's own environment (never the project's `.env`): a project cannot choose where queries go.
 */

/** One search result as the model sees it. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** Names of the back-ends, in the order one is picked when several are configured. */
export const SEARCH_BACKENDS = ["searxng", "brave", "tavily", "exa"] as const;

/** A back-end's name. */
export type SearchBackendName = typeof SEARCH_BACKENDS[number];

/** The back-end chosen for a session: its name, its endpoint and its key (none for SearXNG). */
export interface SearchBackend {
  name: SearchBackendName;
  /** The endpoint's base: the SearXNG instance, or the API's default (`TERN_SEARCH_BASE_URL` overrides it). */
  base: string;
  key?: string;
}

/** The back-end's request for `query`, at most `count` results. */
export function searchRequest(backend: SearchBackend, query: string, count: number): Request {
  const base = backend.base.endsWith("/") ? backend.base : `${backend.base}/`;
  const json = { "content-type": "application/json", accept: "application/json" };
  const key = backend.key ?? "";
  switch (backend.name) {
    case "searxng": {
      const url = new URL("search", base);
      url.search = new URLSearchParams({ q: query, format: "json" }).toString();
      return new Request(url, { headers: { accept: "application/json" } });
    }
    case "brave": {
      const url = new URL("web/search", base);
      url.search = new URLSearchParams({ q: query, count: String(count) }).toString();
      return new Request(url, { headers: { accept: "application/json", "x-subscription-token": key } });
    }
    case "tavily":
      return new Request(new URL("search", base), {
        method: "POST",
        headers: { ...json, authorization: `Bearer ${key}` },
        body: JSON.stringify({ query, max_results: count }),
      });
    case "exa":
      return new Request(new URL("search", base), {
        method: "POST",
        headers: { ...json, "x-api-key": key },
        body: JSON.stringify({ query, numResults: count, contents: { highlights: true } }),
      });
  }
}

/** The results in a back-end's answer, or undefined when the answer is not of its documented shape. */
export function parseResults(name: SearchBackendName, body: unknown): SearchHit[] | undefined {
  const list = name === "brave" ? field(field(body, "web"), "results") ?? [] : field(body, "results");
  if (!Array.isArray(list)) return undefined;
  const hits: SearchHit[] = [];
  for (const item of list) {
    const url = text(field(item, "url"));
    if (url === "") continue;
    hits.push({ title: text(field(item, "title")), url, snippet: snippetOf(name, item) });
  }
  return hits;
}

function snippetOf(name: SearchBackendName, item: unknown): string {
  if (name === "brave") return text(field(item, "description"));
  if (name === "exa") {
    const highlights = field(item, "highlights");
    if (Array.isArray(highlights)) return highlights.map(text).join(" … ");
    return text(field(item, "summary")) || text(field(item, "text"));
  }
  return text(field(item, "content")); // SearXNG and Tavily
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Where each keyed API lives, and the variable holding its key. */
const APIS = {
  brave: { base: "https://api.search.brave.com/res/v1", keyEnv: "BRAVE_API_KEY" },
  tavily: { base: "https://api.tavily.com", keyEnv: "TAVILY_API_KEY" },
  exa: { base: "https://api.exa.ai", keyEnv: "EXA_API_KEY" },
} as const;

/** The variables that hold search keys (redacted wherever keys are). */
export const SEARCH_KEY_VARIABLES = Object.values(APIS).map((api) => api.keyEnv);

/**
 * The back-end `env` configures: `TERN_WEB_SEARCH` names one (`provider`: the model's provider searches,
 * where its wire has a search tool; `off`: none); otherwise the first configured of
 * `TERN_SEARXNG_URL`, `BRAVE_API_KEY`, `TAVILY_API_KEY`, `EXA_API_KEY`. `problem` says why a named one
 * cannot be used.
 */
export function searchBackendFromEnv(
  env: Record<string, string | undefined>,
): { backend?: SearchBackend | "provider"; problem?: string } {
  const chosen = env.TERN_WEB_SEARCH?.trim().toLowerCase() || undefined;
  if (chosen === "off") return {};
  if (chosen === "provider") return { backend: "provider" };
  if (chosen !== undefined && !(SEARCH_BACKENDS as readonly string[]).includes(chosen)) {
    return {
      problem: `TERN_WEB_SEARCH=${chosen} is not one of off, provider, ${SEARCH_BACKENDS.join(", ")}`,
    };
  }
  const names = chosen ? [chosen as SearchBackendName] : SEARCH_BACKENDS;
  for (const name of names) {
    const backend = configured(name, env);
    if (typeof backend === "object") return { backend };
    if (chosen) return { problem: `TERN_WEB_SEARCH=${name} needs ${backend}; web_search is not offered` };
    const variable = name === "searxng" ? "TERN_SEARXNG_URL" : APIS[name].keyEnv;
    if (env[variable]?.trim()) return { problem: `${name} needs ${backend}; web_search is not offered` };
  }
  return {};
}

/** The back-end `name` as `env` sets it up, or the variable it lacks (or has wrong). */
function configured(
  name: SearchBackendName,
  env: Record<string, string | undefined>,
): SearchBackend | string {
  const override = env.TERN_SEARCH_BASE_URL?.trim() || undefined;
  if (name === "searxng") {
    const base = env.TERN_SEARXNG_URL?.trim() ?? "";
    return httpUrl(base) ? { name, base } : "TERN_SEARXNG_URL (an http or https URL)";
  }
  const api = APIS[name];
  const key = env[api.keyEnv]?.trim() ?? "";
  if (key === "") return api.keyEnv;
  if (override !== undefined && !httpUrl(override)) return "TERN_SEARCH_BASE_URL to be an http or https URL";
  return { name, base: override ?? api.base, key };
}

function httpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
