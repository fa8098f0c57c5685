import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { tempProject } from "../support/temp_project.ts";
import { runTern } from "../support/cli.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { createWebFetchTool } from "../../src/tools/web_fetch.ts";
import { testContext } from "./_helpers.ts";
import type { ToolResult } from "../../src/tools/tool.ts";

const PAGE = `<!doctype html><html><head><title>T</title><style>p{}</style><script>alert(1)</script></head>
<body><nav><a href="/">Home</a> · <a href="/blog">Blog</a></nav><header>Site banner</header>
<main><h1>Install</h1><p>Run <code>tern</code> and read <a href="/docs">the docs</a>.</p>
<img src="img/logo.png" alt="logo">
<table><thead><tr><th>Flag</th><th>Meaning</th></tr></thead>
<tbody><tr><td>-p</td><td>headless</td></tr><tr><td>-c</td><td>continue</td></tr></tbody></table></main>
<footer>© 2026 · <a href="/privacy">Privacy</a></footer></body></html>`;

/** A long article with chrome around it: Readability's kind of page. */
const ARTICLE = `<!doctype html><html><head><title>Release notes</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul></nav>
<div id="sidebar"><a href="/ads">Buy now</a></div>
<article><h1>Release notes</h1>${
  Array.from({ length: 6 }, (_, i) =>
    `<p>Paragraph ${i + 1} of the notes, long enough to count as prose for the extractor, with more words ` +
    `about what changed, why it changed, and what the reader should do about it now.</p>`).join("")
}<p>See <a href="../changelog#v2">the changelog</a>.</p></article>
<footer>Footer text · <a href="/terms">Terms</a></footer></body></html>`;

/** A local web server: /page (HTML), /json, /bin (binary), /cookie (sees headers), redirects. */
function startSite() {
  const seen: Headers[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    seen.push(request.headers);
    const path = new URL(request.url).pathname;
    if (path === "/page") {
      return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (path === "/json") return Response.json({ ok: true });
    if (path === "/news/article") {
      return new Response(ARTICLE, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (path === "/bin") {
      return new Response(new Uint8Array([0x89, 0x50, 0]), { headers: { "content-type": "image/png" } });
    }
    if (path === "/to-page") return Response.redirect(new URL("/page", request.url), 302);
    if (path === "/to-file") {
      return new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } });
    }
    return new Response("not here", { status: 404, headers: { "content-type": "text/plain" } });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { base, seen, [Symbol.asyncDispose]: () => server.shutdown() };
}

async function fetchPage(url: string, allowLocal: boolean, root: string): Promise<ToolResult> {
  const tool = createWebFetchTool({ allowLocal });
  try {
    const result = await tool.run({ url }, testContext(root));
    return typeof result === "string" ? { content: result } : result;
  } catch (error) {
    return { content: (error as Error).message, error: { kind: (error as { kind: "refused" }).kind } };
  }
}

Deno.test("web_fetch returns a local page as markdown with allowLocal, sending no cookies or keys", async () => {
  await using project = await tempProject();
  await using site = startSite();
  const result = await fetchPage(`${site.base}/page`, true, project.root);
  assertEquals(result.error, undefined, result.content);
  assertStringIncludes(result.content, `# Install\n\nRun \`tern\` and read [the docs](${site.base}/docs).`);
  assert(!result.content.includes("alert(1)"), "a script's text reached the model");
  assertEquals(site.seen[0].get("cookie"), null);
  assertEquals(site.seen[0].get("authorization"), null);
});

Deno.test("web_fetch refuses loopback addresses and localhost without allowLocal", async () => {
  await using project = await tempProject();
  await using site = startSite();
  const result = await fetchPage(`${site.base}/page`, false, project.root);
  assertEquals(result.error?.kind, "refused");
  assertStringIncludes(result.content, "--allow-local-fetch");
  assertEquals(site.seen.length, 0);
  assertEquals((await fetchPage("http://localhost:1/", false, project.root)).error?.kind, "refused");
  assertEquals((await fetchPage("http://[::1]:1/", false, project.root)).error?.kind, "refused");
});

Deno.test("web_fetch passes text through, refuses binary and non-http schemes, re-checks redirects", async () => {
  await using project = await tempProject();
  await using site = startSite();
  assertEquals(
    (await fetchPage(`${site.base}/json`, true, project.root)).content.endsWith('{"ok":true}'),
    true,
  );
  assertEquals((await fetchPage(`${site.base}/bin`, true, project.root)).error?.kind, "binary");
  assertEquals((await fetchPage("file:///etc/passwd", true, project.root)).error?.kind, "refused");
  const redirected = await fetchPage(`${site.base}/to-page`, true, project.root);
  assertStringIncludes(redirected.content, `URL: ${site.base}/page`);
  assertEquals((await fetchPage(`${site.base}/to-file`, true, project.root)).error?.kind, "refused");
});

Deno.test("web_fetch keeps tables as GFM tables, makes links and images absolute, drops page chrome", async () => {
  await using project = await tempProject();
  await using site = startSite();
  const page = await fetchPage(`${site.base}/page`, true, project.root);
  assertStringIncludes(page.content, "| Flag | Meaning |\n| --- | --- |\n| \\-p | headless |");
  assertStringIncludes(page.content, `![logo](${site.base}/img/logo.png)`);
  for (const chrome of ["Home", "Site banner", "Privacy"]) assert(!page.content.includes(chrome), chrome);
  const article = await fetchPage(`${site.base}/news/article`, true, project.root);
  assertStringIncludes(article.content, "# Release notes\n\n");
  assertStringIncludes(article.content, "Paragraph 6 of the notes");
  assertStringIncludes(article.content, `[the changelog](${site.base}/changelog#v2)`);
  for (const chrome of ["About us", "Buy now", "Terms"]) assert(!article.content.includes(chrome), chrome);
});

Deno.test("web_fetch reports the status, the final URL and the size, and a 404 as an error naming it", async () => {
  await using project = await tempProject();
  await using site = startSite();
  const redirected = await fetchPage(`${site.base}/to-page`, true, project.root);
  assertEquals(redirected.details?.web, {
    status: 200,
    url: `${site.base}/page`,
    bytes: new TextEncoder().encode(PAGE).length,
  });
  const missing = await fetchPage(`${site.base}/missing`, true, project.root);
  assertEquals(missing.error?.kind, "not_found");
  assert(missing.content.startsWith(`HTTP 404 Not Found from ${site.base}/missing: no page at this URL`));
  assertEquals(missing.details?.web?.status, 404);
});

Deno.test("web_fetch asks for the first fetch of a host, then not again for that host", async () => {
  await using project = await tempProject();
  await using site = startSite();
  const tool = createWebFetchTool({ allowLocal: true });
  const ctx = testContext(project.root);
  const first = await tool.inspect({ url: `${site.base}/page` }, ctx);
  assertEquals([first.effect, first.sandboxed], ["network", true]);
  await tool.run({ url: `${site.base}/page` }, ctx);
  assertEquals((await tool.inspect({ url: `${site.base}/json` }, ctx)).effect, "read");
  assertEquals((await tool.inspect({ url: "https://example.com/" }, ctx)).effect, "network");
});

Deno.test("tern -p fetches a local page only with --allow-local-fetch", async () => {
  await using project = await tempProject();
  await using site = startSite();
  const script = [
    { toolCalls: [{ name: "web_fetch", arguments: JSON.stringify({ url: `${site.base}/page` }) }] },
    { text: "Read it." },
  ];
  const results: string[] = [];
  const stderr: string[] = [];
  for (const flags of [["--allow-local-fetch"], []]) {
    await using model = await startFakeModel(script);
    const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "m" };
    const run = await runTern({ cwd: project.root, args: ["-p", "read", "--approve", "all", ...flags], env });
    assertEquals(run.code, 0, run.stderr);
    const messages = model.requests[1].messages as { role: string; content: string }[];
    results.push(messages.at(-1)!.content);
    stderr.push(run.stderr);
  }
  // Under the narrowed flags the extractor and the table plugin work, and the tool line says what came back.
  assertStringIncludes(results[0], "# Install");
  assertStringIncludes(results[0], "| Flag | Meaning |");
  const size = new TextEncoder().encode(PAGE).length;
  assertStringIncludes(stderr[0], `⎿ ok HTTP 200 · ${site.base}/page · ${size} B`);
  assertStringIncludes(results[1], "--allow-local-fetch");
  assert(!results[1].includes("# Install"));
});

Deno.test("tern -p without a terminal refuses web_fetch naming network access and both ways to allow it", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([
    { toolCalls: [{ name: "web_fetch", arguments: '{"url":"https://example.com/docs"}' }] },
    { text: "Could not fetch." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "read the docs page"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals(run.code, 3, run.stderr);
  const result = (model.requests[1].messages as { role: string; content: string }[])
    .find((message) => message.role === "tool")!.content;
  assertStringIncludes(result, "it needs approval (web_fetch asks for network access)");
  assertStringIncludes(result, "rerunning tern with --approve all, or by running tern on a terminal");
  assert(!result.includes("the command"), result);
  assertStringIncludes(
    run.stderr,
    "1 call was refused: web_fetch https://example.com/docs; rerun with --approve all",
  );
});
