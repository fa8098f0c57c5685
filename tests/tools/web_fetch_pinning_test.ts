/**
 * web_fetch connects to the address it checked (DNS rebinding). Names are answered by a test resolver, and
 * "public" addresses are dialled through a test dialler that leads to servers on 127.0.0.1 (or nowhere), so
 * nothing here leaves this machine. The tests without a dialler use the real connect: system DNS cannot
 * resolve `pinned.test`, so reaching the server proves the connection went to the checked address.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { testNeeding } from "../support/requires.ts";
import { tempProject } from "../support/temp_project.ts";
import { createWebFetchTool, MAX_BODY_BYTES, type WebFetchOptions } from "../../src/tools/web_fetch.ts";
import type { Dial } from "../../src/tools/web/pinned_fetch.ts";
import { testContext } from "./_helpers.ts";
import type { ToolResult } from "../../src/tools/tool.ts";

/** A documentation address (TEST-NET-3): public by web_fetch's rules, never dialled for real here. */
const PUBLIC = "203.0.113.7";

type TlsFiles = { cert: string; key: string };

/** A server on 127.0.0.1 that records the host each request named; `/hop` redirects to `redirect`. */
function startServer(tls?: TlsFiles, redirect?: string) {
  const hosts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {}, ...tls }, (request) => {
    // The URL's host is the Host header in HTTP/1.1 and :authority in HTTP/2.
    hosts.push(new URL(request.url).host);
    if (redirect && new URL(request.url).pathname === "/hop") {
      return new Response(null, { status: 302, headers: { location: redirect } });
    }
    return new Response("served from 127.0.0.1", { headers: { "content-type": "text/plain" } });
  });
  return { port: server.addr.port, hosts, [Symbol.asyncDispose]: () => server.shutdown() };
}

/** A resolver answering from `answers` (name → answers of the 1st, 2nd, … call; the last one repeats). */
function scriptedResolver(answers: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolve = (host: string) => {
    const script = answers[host] ?? [[]];
    const count = calls.filter((name) => name === host).length;
    calls.push(host);
    return Promise.resolve(script[Math.min(count, script.length - 1)]);
  };
  return { calls, resolve };
}

/** A dialler that records what it was asked for and sends `routes` (address → local port) to 127.0.0.1. */
function routedDial(routes: Record<string, number>) {
  const dialled: string[] = [];
  const dial: Dial = (address, port, signal) => {
    dialled.push(`${address}:${port}`);
    const local = routes[address];
    if (local === undefined) {
      return Promise.reject(new Deno.errors.ConnectionRefused("no route in this test"));
    }
    return Deno.connect({ hostname: "127.0.0.1", port: local, signal });
  };
  return { dialled, dial };
}

async function fetchWith(options: WebFetchOptions, url: string, root: string): Promise<ToolResult> {
  const tool = createWebFetchTool(options);
  try {
    const result = await tool.run({ url }, testContext(root));
    return typeof result === "string" ? { content: result } : result;
  } catch (error) {
    return { content: (error as Error).message, error: { kind: (error as { kind: "refused" }).kind } };
  }
}

Deno.test("web_fetch resolves once and connects to the checked address when DNS rebinds to 127.0.0.1", async () => {
  await using project = await tempProject();
  await using local = startServer();
  const names = scriptedResolver({ "rebind.test": [[PUBLIC], ["127.0.0.1"]] });
  const network = routedDial({}); // the public address is unreachable here
  const url = `http://rebind.test:${local.port}/`;
  const result = await fetchWith({ resolve: names.resolve, dial: network.dial }, url, project.root);
  assertEquals(result.error?.kind, "io", result.content);
  assertStringIncludes(result.content, `could not fetch ${url}`);
  assertEquals(names.calls, ["rebind.test"]);
  assertEquals(network.dialled, [`${PUBLIC}:${local.port}`]);
  assertEquals(local.hosts.length, 0);
});

Deno.test("web_fetch reaches a name only through the address its resolver gave, naming the host", async () => {
  await using project = await tempProject();
  await using local = startServer();
  const names = scriptedResolver({ "pinned.test": [["127.0.0.1"]] });
  const url = `http://pinned.test:${local.port}/page`;
  const result = await fetchWith({ allowLocal: true, resolve: names.resolve }, url, project.root);
  assertEquals(result.error, undefined, result.content);
  assertStringIncludes(result.content, "served from 127.0.0.1");
  assertEquals(result.details?.web?.url, url);
  assertEquals(local.hosts, [`pinned.test:${local.port}`]);
});

Deno.test("web_fetch pins every redirect hop and refuses one that resolves local or rebinds", async () => {
  await using project = await tempProject();
  await using target = startServer();
  const toLocalName = `http://internal.test:${target.port}/secret`;
  await using site = startServer(undefined, toLocalName);
  const names = scriptedResolver({
    "public.test": [[PUBLIC]],
    "internal.test": [["10.0.0.5", "127.0.0.1"]],
  });
  const network = routedDial({ [PUBLIC]: site.port });
  const options = { resolve: names.resolve, dial: network.dial };
  const refused = await fetchWith(options, `http://public.test:${target.port}/hop`, project.root);
  assertEquals(refused.error?.kind, "refused", refused.content);
  assertStringIncludes(refused.content, `internal.test:${target.port} is a local or private address`);
  assertEquals(site.hosts, [`public.test:${target.port}`]);
  assertEquals(network.dialled, [`${PUBLIC}:${target.port}`]);
  assertEquals(target.hosts.length, 0);

  // The same name again on the next hop, now answering 127.0.0.1: checked again, refused again.
  await using rebinding = startServer(undefined, `http://public.test:${target.port}/secret`);
  const again = scriptedResolver({ "public.test": [[PUBLIC], ["127.0.0.1"]] });
  const rebound = await fetchWith(
    { resolve: again.resolve, dial: routedDial({ [PUBLIC]: rebinding.port }).dial },
    `http://public.test:${target.port}/hop`,
    project.root,
  );
  assertEquals(rebound.error?.kind, "refused", rebound.content);
  assertEquals(again.calls, ["public.test", "public.test"]);
  assertEquals(rebinding.hosts, [`public.test:${target.port}`]);
  assertEquals(target.hosts.length, 0);
});

Deno.test("web_fetch stays pinned when NO_PROXY lists every host", async () => {
  await using project = await tempProject();
  await using local = startServer();
  const saved = Deno.env.get("NO_PROXY");
  Deno.env.set("NO_PROXY", "*");
  try {
    const resolve = scriptedResolver({ "pinned.test": [["127.0.0.1"]] }).resolve;
    const url = `http://pinned.test:${local.port}/`;
    const result = await fetchWith({ allowLocal: true, resolve }, url, project.root);
    assertEquals(result.error, undefined, result.content);
    assertEquals(local.hosts, [`pinned.test:${local.port}`]);
    assertEquals(Deno.env.get("NO_PROXY"), "*");
  } finally {
    if (saved === undefined) Deno.env.delete("NO_PROXY");
    else Deno.env.set("NO_PROXY", saved);
  }
});

Deno.test("web_fetch through the pin still cuts a page at 5 MB and ends a cancelled fetch, leaving nothing open", async () => {
  await using project = await tempProject();
  const big = "x".repeat(MAX_BODY_BYTES + 1024 * 1024);
  const stalled = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    if (new URL(request.url).pathname === "/big") {
      return new Response(big, { headers: { "content-type": "text/plain" } });
    }
    await stalled.promise; // never answers until the test ends
    return new Response("late");
  });
  try {
    const resolve = scriptedResolver({ "pinned.test": [["127.0.0.1"]] }).resolve;
    const tool = createWebFetchTool({ allowLocal: true, resolve });
    const base = `http://pinned.test:${server.addr.port}`;
    const page = await tool.run({ url: `${base}/big`, max_chars: 100 }, testContext(project.root));
    assert(typeof page !== "string");
    const read = page.details?.web?.bytes ?? 0; // reading stops at the chunk that crosses the cap
    assert(read >= MAX_BODY_BYTES && read < big.length, `read ${read} bytes`);
    assertStringIncludes(page.content, "[page cut at 5 MB]");

    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 200);
    const error = await tool.run(
      { url: `${base}/stall` },
      testContext(project.root, { signal: cancel.signal }),
    )
      .then(() => undefined, (error: Error) => error);
    assertEquals(error?.message, "cancelled by the user");
  } finally {
    stalled.resolve();
    await server.shutdown();
  }
});

testNeeding(
  ["openssl"],
  "web_fetch over https verifies the certificate against the host name, not the pinned address",
  async () => {
    await using project = await tempProject();
    const certs = await makeCertificates(project.outside, ["pinned.test", "other.test"]);
    await using good = startServer(certs.files["pinned.test"]);
    await using wrong = startServer(certs.files["other.test"]);
    const resolve = scriptedResolver({ "pinned.test": [["127.0.0.1"]] }).resolve;
    const options = { allowLocal: true, resolve, caCerts: [certs.ca] };
    const url = `https://pinned.test:${good.port}/page`;
    const ok = await fetchWith(options, url, project.root);
    assertEquals(ok.error, undefined, ok.content);
    assertStringIncludes(ok.content, "served from 127.0.0.1");
    assertEquals(ok.details?.web?.url, url);
    assertEquals(good.hosts, [`pinned.test:${good.port}`]);

    const mismatch = await fetchWith(options, `https://pinned.test:${wrong.port}/page`, project.root);
    assertEquals(mismatch.error?.kind, "io", mismatch.content);
    assertStringIncludes(mismatch.content, 'not valid for name "pinned.test"');
    assertEquals(wrong.hosts.length, 0);

    const untrusted = await fetchWith({ ...options, caCerts: [] }, url, project.root);
    assertEquals(untrusted.error?.kind, "io", untrusted.content);
    assertEquals(good.hosts.length, 1);
  },
);

/** A test CA (`ca`, PEM) and, for each name, a certificate and key it signed (`files`). */
async function makeCertificates(dir: string, names: string[]) {
  const openssl = async (...args: string[]) => {
    const run = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" })
      .output();
    assert(run.success, new TextDecoder().decode(run.stderr));
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await openssl(
    "req",
    "-x509",
    ...ec,
    "-days",
    "1",
    "-subj",
    "/CN=tern test CA",
    "-keyout",
    "ca.key",
    "-out",
    "ca.crt",
  );
  const files: Record<string, TlsFiles> = {};
  for (const name of names) {
    await Deno.writeTextFile(
      join(dir, `${name}.ext`),
      `subjectAltName=DNS:${name}\nbasicConstraints=CA:FALSE\n`,
    );
    await openssl("req", ...ec, "-subj", `/CN=${name}`, "-keyout", `${name}.key`, "-out", `${name}.csr`);
    await openssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "1",
      "-extfile",
      `${name}.ext`,
      "-out",
      `${name}.crt`,
    );
    const read = (file: string) => Deno.readTextFile(join(dir, file));
    files[name] = { cert: await read(`${name}.crt`), key: await read(`${name}.key`) };
  }
  return { ca: await Deno.readTextFile(join(dir, "ca.crt")), files };
}
