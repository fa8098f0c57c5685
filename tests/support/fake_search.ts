/**
 * A fake search back-end on 127.0.0.1:0 answering in the documented response shape of SearXNG, Brave,
 * Tavily or Exa, recording every request it got (method, path, query, headers, body).
 */
import type { SearchBackendName } from "../../src/tools/web/search_backends.ts";

/** One request the fake got. */
export interface SearchRequestSeen {
  method: string;
  path: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/** A running fake back-end. */
export interface FakeSearch extends AsyncDisposable {
  /** Its base URL: what TERN_SEARXNG_URL or TERN_SEARCH_BASE_URL is set to. */
  url: string;
  requests: SearchRequestSeen[];
}

/** What a fake answers instead of its results: a status and body (a refused key, a broken answer). */
export interface FakeSearchOptions {
  status?: number;
  body?: string;
}

/** The hits every fake returns, whatever the query (the second one points at `local`, when given). */
export function fakeHits(local?: string) {
  return [
    {
      title: "Deno, the next-generation <b>JavaScript</b> runtime",
      url: "https://deno.com/",
      text: "Deno is a &amp; secure runtime.",
    },
    { title: "Local page", url: local ?? "https://example.org/docs", text: "A second result." },
  ];
}

/** The documented answer of `name` holding `hits`. */
export function answerOf(name: SearchBackendName, hits = fakeHits()): unknown {
  switch (name) {
    case "searxng":
      return {
        query: "q",
        number_of_results: 0,
        results: hits.map((hit, i) => ({
          url: hit.url,
          title: hit.title,
          content: hit.text,
          engine: "duckduckgo",
          parsed_url: ["https", new URL(hit.url).host, "/", "", "", ""],
          template: "default.html",
          engines: ["duckduckgo"],
          positions: [i + 1],
          score: 1 / (i + 1),
          category: "general",
        })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      };
    case "brave":
      return {
        type: "search",
        query: { original: "q", show_strict_warning: false, is_navigational: false },
        mixed: { type: "mixed", main: [{ type: "web", index: 0, all: false }] },
        web: {
          type: "search",
          family_friendly: true,
          results: hits.map((hit) => ({
            title: hit.title,
            url: hit.url,
            is_source_local: false,
            is_source_both: false,
            description: hit.text,
            language: "en",
            family_friendly: true,
            type: "search_result",
            subtype: "generic",
            meta_url: { scheme: "https", netloc: new URL(hit.url).host, path: "› docs" },
          })),
        },
      };
    case "tavily":
      return {
        query: "q",
        follow_up_questions: null,
        answer: null,
        images: [],
        results: hits.map((hit) => ({
          url: hit.url,
          title: hit.title,
          content: hit.text,
          score: 0.8,
          raw_content: null,
        })),
        response_time: 1.1,
      };
    case "exa":
      return {
        requestId: "b5947044c4b78efa9552a7c89b306d95",
        resolvedSearchType: "neural",
        results: hits.map((hit) => ({
          id: hit.url,
          title: hit.title,
          url: hit.url,
          publishedDate: "2024-05-01T00:00:00.000Z",
          author: null,
          highlights: [hit.text],
          highlightScores: [0.5],
        })),
        costDollars: { total: 0.005 },
      };
  }
}

/** Starts a fake `name` back-end answering `answer` (default: its documented shape with fakeHits()). */
export function startFakeSearch(
  name: SearchBackendName,
  options: FakeSearchOptions & { answer?: unknown } = {},
): FakeSearch {
  const requests: SearchRequestSeen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const text = await request.text();
    requests.push({
      method: request.method,
      path: url.pathname,
      params: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(request.headers),
      body: text === "" ? undefined : JSON.parse(text),
    });
    if (options.status !== undefined) return new Response(options.body ?? "", { status: options.status });
    return Response.json(options.answer ?? answerOf(name));
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}${name === "brave" ? "/res/v1" : ""}`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
