/** web_search through the real CLI: offered only when configured, each back-end's answer reaches the model. */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type Script, startFakeModel } from "./support/fake_model_server.ts";
import { answerOf, fakeHits, startFakeSearch } from "./support/fake_search.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";
import { SEARCH_BACKENDS, type SearchBackendName } from "../src/tools/web/search_backends.ts";

type Message = { role: string; content: string };

/** Runs `tern -p go` against `script` with `env` added; returns the run and the model's requests. */
async function run(script: Script, env: Record<string, string>, files: Record<string, string> = {}) {
  await using project = await tempProject(files);
  await using model = startFakeModel(script);
  const modelEnv = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "m" };
  const result = await runTern({
    cwd: project.root,
    args: ["-p", "go", "--approve", "all"],
    env: { ...modelEnv, ...env },
  });
  return { ...result, requests: model.requests };
}

const toolNames = (body: Record<string, unknown>) =>
  (body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);

/** The environment that points `name` at `url` (a fake). */
function backendEnv(name: SearchBackendName, url: string): Record<string, string> {
  if (name === "searxng") return { TERN_SEARXNG_URL: url };
  const key = { brave: "BRAVE_API_KEY", tavily: "TAVILY_API_KEY", exa: "EXA_API_KEY" }[name];
  return { [key]: "search-key", TERN_SEARCH_BASE_URL: url };
}

const searchThenAnswer: Script = [
  { toolCalls: [{ name: "web_search", arguments: '{"query":"deno runtime"}' }] },
  { text: "Deno is at deno.com." },
];

Deno.test("tern -p offers no web_search when no back-end is configured", async () => {
  const result = await run([{ text: "ok" }], {});
  assertEquals(result.code, 0, result.stderr);
  assert(!toolNames(result.requests[0]).includes("web_search"));
  assert(toolNames(result.requests[0]).includes("web_fetch"));
});

for (const name of SEARCH_BACKENDS) {
  Deno.test(`tern -p with ${name} configured: the model's web_search gets that back-end's results`, async () => {
    await using search = startFakeSearch(name);
    const result = await run(searchThenAnswer, backendEnv(name, search.url));
    assertEquals([result.code, result.stdout], [0, "Deno is at deno.com.\n"], result.stderr);
    assertEquals(search.requests.length, 1);
    assert(toolNames(result.requests[0]).includes("web_search"));
    const toolResult = (result.requests[1].messages as Message[]).find((m) => m.role === "tool")!;
    assertStringIncludes(toolResult.content, `Results for "deno runtime" (${name}):`);
    assertStringIncludes(
      toolResult.content,
      "1. Deno, the next-generation JavaScript runtime\n   https://deno.com/",
    );
  });
}

Deno.test("offering web_search grows the first request by at most 400 bytes", async () => {
  await using search = startFakeSearch("brave");
  const without = await run([{ text: "ok" }], {});
  const withSearch = await run([{ text: "ok" }], backendEnv("brave", search.url));
  const size = (body: Record<string, unknown>) => new TextEncoder().encode(JSON.stringify(body)).length;
  const growth = size(withSearch.requests[0]) - size(without.requests[0]);
  assert(growth > 0 && growth <= 400, `the first request grew by ${growth} bytes`);
});

Deno.test("a URL a search returned is fetched by web_fetch under its guards: a local one is refused", async () => {
  await using site = startFakeSearch("searxng"); // any local server: its address is the point
  const local = `${site.url}/secret`;
  await using search = startFakeSearch("exa", { answer: answerOf("exa", fakeHits(local)) });
  const result = await run([
    { toolCalls: [{ name: "web_search", arguments: '{"query":"q"}' }] },
    { toolCalls: [{ name: "web_fetch", arguments: JSON.stringify({ url: local }) }] },
    { text: "done" },
  ], backendEnv("exa", search.url));
  assertEquals(result.code, 0, result.stderr);
  const results = (result.requests[2].messages as Message[]).filter((m) => m.role === "tool");
  assertStringIncludes(results[0].content, local);
  assertStringIncludes(results[1].content, "is a local or private address");
  assertEquals(site.requests.length, 0, "the local page was never requested");
});

Deno.test("a project's .env cannot choose where queries go: its search settings are ignored", async () => {
  await using search = startFakeSearch("searxng");
  const result = await run([{ text: "ok" }], {}, { ".env": `TERN_SEARXNG_URL=${search.url}\n` });
  assertEquals(result.code, 0, result.stderr);
  assert(!toolNames(result.requests[0]).includes("web_search"));
});

Deno.test("TERN_WEB_SEARCH naming a back-end without its key is said on stderr, and nothing is offered", async () => {
  const result = await run([{ text: "ok" }], { TERN_WEB_SEARCH: "tavily" });
  assertEquals(result.code, 0, result.stderr);
  assertStringIncludes(
    result.stderr,
    "TERN_WEB_SEARCH=tavily needs TAVILY_API_KEY; web_search is not offered",
  );
  assert(!toolNames(result.requests[0]).includes("web_search"));
});

Deno.test("TERN_WEB_SEARCH=provider declares the provider's own search tool on the Anthropic and Responses wires", async () => {
  const declared = {
    anthropic: { type: "web_search_20250305", name: "web_search", max_uses: 5 },
    responses: { type: "web_search" },
  };
  for (const api of ["anthropic", "responses"] as const) {
    await using project = await tempProject({});
    await using model = startFakeModel([{ text: "searched" }]);
    const result = await runTern({
      cwd: project.root,
      args: ["-p", "go", "--api", api],
      env: {
        TERN_BASE_URL: api === "anthropic" ? model.root : model.url,
        TERN_API_KEY: "k",
        TERN_MODEL: "m",
        TERN_WEB_SEARCH: "provider",
      },
    });
    assertEquals([result.code, result.stdout], [0, "searched\n"], result.stderr);
    const tools = model.requests[0].tools as Record<string, unknown>[];
    assertEquals(tools.filter((tool) => tool.type === declared[api].type), [declared[api]]);
    assertEquals(tools.filter((tool) => tool.name === "web_search").length, api === "anthropic" ? 1 : 0);
  }
});

Deno.test("TERN_WEB_SEARCH=provider on the chat wire is said on stderr, and nothing is offered", async () => {
  const result = await run([{ text: "ok" }], { TERN_WEB_SEARCH: "provider" });
  assertEquals(result.code, 0, result.stderr);
  assertStringIncludes(
    result.stderr,
    "TERN_WEB_SEARCH=provider needs a model on the Anthropic or Responses wire (this one speaks chat)",
  );
  assert(!toolNames(result.requests[0]).includes("web_search"));
});
