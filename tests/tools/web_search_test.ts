import { assert, assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { answerOf, startFakeSearch } from "../support/fake_search.ts";
import { createProviderSearchTool, createWebSearchTool } from "../../src/tools/web_search.ts";
import {
  SEARCH_BACKENDS,
  type SearchBackend,
  searchBackendFromEnv,
  type SearchBackendName,
} from "../../src/tools/web/search_backends.ts";
import { type ToolResult } from "../../src/tools/tool.ts";
import { testContext } from "./_helpers.ts";

const KEY = "sk-search-secret-123";

async function search(backend: SearchBackend, args: { query: string; max_results?: number }) {
  const tool = createWebSearchTool(backend);
  return await tool.run(args, testContext("/tmp")) as ToolResult;
}

const backendAt = (name: SearchBackendName, base: string): SearchBackend =>
  name === "searxng" ? { name, base } : { name, base, key: KEY };

/** What each back-end's request must look like, from its documentation. */
const EXPECTED: Record<SearchBackendName, (seen: ReturnType<typeof startFakeSearch>["requests"][0]) => void> =
  {
    searxng: (seen) => {
      assertEquals([seen.method, seen.path, seen.params], ["GET", "/search", {
        q: "deno runtime",
        format: "json",
      }]);
    },
    brave: (seen) => {
      assertEquals([seen.method, seen.path, seen.params], [
        "GET",
        "/res/v1/web/search",
        { q: "deno runtime", count: "3" },
      ]);
      assertEquals(seen.headers["x-subscription-token"], KEY);
    },
    tavily: (seen) => {
      assertEquals([seen.method, seen.path, seen.body], ["POST", "/search", {
        query: "deno runtime",
        max_results: 3,
      }]);
      assertEquals(seen.headers.authorization, `Bearer ${KEY}`);
    },
    exa: (seen) => {
      assertEquals([seen.method, seen.path], ["POST", "/search"]);
      assertEquals(seen.body, { query: "deno runtime", numResults: 3, contents: { highlights: true } });
      assertEquals(seen.headers["x-api-key"], KEY);
    },
  };

for (const name of SEARCH_BACKENDS) {
  Deno.test(`web_search through ${name} sends its documented request and lists title, URL and snippet`, async () => {
    await using fake = startFakeSearch(name);
    const result = await search(backendAt(name, fake.url), { query: "deno runtime", max_results: 3 });
    assertEquals(fake.requests.length, 1);
    EXPECTED[name](fake.requests[0]);
    assertEquals(result.error, undefined);
    assertEquals(
      result.content,
      `Results for "deno runtime" (${name}):\n` +
        "1. Deno, the next-generation JavaScript runtime\n   https://deno.com/\n   Deno is a & secure runtime.\n" +
        "2. Local page\n   https://example.org/docs\n   A second result.",
    );
    assertEquals(result.details?.shown, { from: 1, to: 2, of: 2, unit: "results" });
  });
}

Deno.test("web_search keeps at most max_results, drops non-http URLs and cuts long snippets", async () => {
  const hits = [
    { title: "bad", url: "javascript:alert(1)", text: "x" },
    ...Array.from(
      { length: 6 },
      (_, i) => ({ title: `t${i}`, url: `https://e.org/${i}`, text: "w".repeat(500) }),
    ),
  ];
  await using fake = startFakeSearch("tavily", { answer: answerOf("tavily", hits) });
  const result = await search(backendAt("tavily", fake.url), { query: "q", max_results: 2 });
  assert(!result.content.includes("javascript:"));
  assertEquals(result.content.match(/^\d+\. /gm), ["1. ", "2. "]);
  assertStringIncludes(result.content, `   ${"w".repeat(300)}…`);
});

Deno.test("web_search says there were no results, in words the model can act on", async () => {
  await using fake = startFakeSearch("searxng", { answer: answerOf("searxng", []) });
  const result = await search(backendAt("searxng", fake.url), { query: "zzz" });
  assertEquals(result.content, 'No results for "zzz" (searxng); try other words.');
});

Deno.test("web_search turns a refused key, a rate limit and a broken answer into errors that say what to do", async () => {
  const cases: [number | undefined, string | undefined, string][] = [
    [401, `{"error":"bad key ${KEY}"}`, "brave answered HTTP 401: the key was refused; check it"],
    [429, "", "brave answered HTTP 429: the rate limit or quota is reached"],
    [200, "<html>not json</html>", "brave answered with something that is not JSON"],
    [200, '{"web":{"results":"nope"}}', "brave answered without a result list"],
    [302, "", "brave answered HTTP 302: it redirected"],
  ];
  for (const [status, body, words] of cases) {
    await using fake = startFakeSearch("brave", { status, body });
    const error = await assertRejects(() => search(backendAt("brave", fake.url), { query: "q" }));
    assertStringIncludes((error as Error).message, words);
    assert(!(error as Error).message.includes(KEY), "a key never reaches the model");
  }
});

Deno.test("web_search names a SearXNG instance that refuses JSON (json not in its formats)", async () => {
  await using fake = startFakeSearch("searxng", { status: 403, body: "Forbidden" });
  const error = await assertRejects(() => search(backendAt("searxng", fake.url), { query: "q" }));
  assertStringIncludes((error as Error).message, "enable `json` under search.formats");
});

Deno.test("web_search reports a back-end that cannot be reached as an io error", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const error = await assertRejects(() =>
    search(backendAt("exa", `http://127.0.0.1:${port}`), { query: "q" })
  );
  assertStringIncludes((error as Error).message, "could not reach exa");
});

Deno.test("searchBackendFromEnv() offers nothing when nothing is configured, or TERN_WEB_SEARCH=off", () => {
  assertEquals(searchBackendFromEnv({}), {});
  assertEquals(searchBackendFromEnv({ BRAVE_API_KEY: "k", TERN_WEB_SEARCH: "off" }), {});
  assertEquals(searchBackendFromEnv({ BRAVE_API_KEY: "  " }), {});
});

Deno.test("searchBackendFromEnv() picks the first configured back-end, or the one TERN_WEB_SEARCH names", () => {
  const env = { TERN_SEARXNG_URL: "http://localhost:8888", EXA_API_KEY: "e", BRAVE_API_KEY: "b" };
  assertEquals(searchBackendFromEnv(env).backend, { name: "searxng", base: "http://localhost:8888" });
  assertEquals(searchBackendFromEnv({ ...env, TERN_WEB_SEARCH: "exa" }).backend, {
    name: "exa",
    base: "https://api.exa.ai",
    key: "e",
  });
  assertEquals(
    searchBackendFromEnv({ TAVILY_API_KEY: "t", TERN_SEARCH_BASE_URL: "http://127.0.0.1:9" }).backend,
    {
      name: "tavily",
      base: "http://127.0.0.1:9",
      key: "t",
    },
  );
});

Deno.test("searchBackendFromEnv() leaves the search to the provider with TERN_WEB_SEARCH=provider", () => {
  assertEquals(searchBackendFromEnv({ TERN_WEB_SEARCH: "Provider", BRAVE_API_KEY: "b" }), {
    backend: "provider",
  });
});

Deno.test("createProviderSearchTool() is declared for the wire, and a call that reaches tern is refused", async () => {
  const tool = createProviderSearchTool();
  assertEquals([tool.name, tool.server], ["web_search", "web_search"]);
  const error = await assertRejects(async () => await tool.run({}, testContext("/tmp")));
  assertStringIncludes((error as Error).message, "web_search runs on the provider's side");
});

Deno.test("searchBackendFromEnv() says what is wrong with a back-end named but not usable", () => {
  assertEquals(searchBackendFromEnv({ TERN_WEB_SEARCH: "brave" }), {
    problem: "TERN_WEB_SEARCH=brave needs BRAVE_API_KEY; web_search is not offered",
  });
  assertEquals(searchBackendFromEnv({ TERN_WEB_SEARCH: "google" }), {
    problem: "TERN_WEB_SEARCH=google is not one of off, provider, searxng, brave, tavily, exa",
  });
  assertEquals(searchBackendFromEnv({ TERN_SEARXNG_URL: "file:///etc/passwd" }), {
    problem: "searxng needs TERN_SEARXNG_URL (an http or https URL); web_search is not offered",
  });
  assertEquals(searchBackendFromEnv({ EXA_API_KEY: "e", TERN_SEARCH_BASE_URL: "ftp://x" }), {
    problem: "exa needs TERN_SEARCH_BASE_URL to be an http or https URL; web_search is not offered",
  });
});
