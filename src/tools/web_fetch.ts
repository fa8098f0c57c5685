/**
 * web_fetch: read one web page. http and https only; HTML becomes markdown, other text passes through,
 * binary is refused; size and time are capped; every redirect is checked again. Public addresses only
 * unless the user allowed local fetches; each hop's host is resolved once and the connection goes to an
 * address that was checked, so a DNS answer that changes in between cannot reach a local one. It sends no
 * cookies and no keys, and asks before the first fetch of each host (then that host runs without asking
 * for the rest of the conversation).
 */
import { isLocalAddress, isLocalName } from "./web/address.ts";
import { pinnedFetch, type PinnedResponse, type PinOptions } from "./web/pinned_fetch.ts";
import type { CallInspection, Tool, ToolContext, ToolDetails, ToolResult } from "./tool.ts";
import { ToolError } from "./tool.ts";

/** Largest body read, in bytes; a longer page is cut there (and says so). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Time allowed for the whole fetch, redirects included, in milliseconds. */
export const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const DEFAULT_MAX_CHARS = 100_000;

// That HTML comes as markdown, the page shows; a cut page says where it was cut.
const description = "Fetch up to max_chars of an http(s) url.";

const parameters = {
  type: "object",
  properties: {
    url: { type: "string" },
    max_chars: { type: "integer", minimum: 100, maximum: 1_000_000 },
  },
  required: ["url"],
  additionalProperties: false,
};

/** Arguments of web_fetch, as validated against its schema. */
export type WebFetchArgs = { url: string; max_chars?: number };

/** Settings of web_fetch (the pin's own settings are for tests). */
export interface WebFetchOptions extends PinOptions {
  /** Allow loopback, private and link-local addresses (`--allow-local-fetch`). */
  allowLocal?: boolean;
  /** The addresses of a host name (default: its DNS A and AAAA answers); tests replace it. */
  resolve?: (host: string) => Promise<string[]>;
}

/** Builds web_fetch; its memory of approved hosts lasts as long as the tool (one conversation). */
export function createWebFetchTool(options: WebFetchOptions = {}): Tool<WebFetchArgs> {
  const approvedHosts = new Set<string>();
  const inspect = (args: WebFetchArgs): Promise<CallInspection> => {
    const url = checkedUrl(args.url);
    const summary = url.href.slice(0, 200);
    if (approvedHosts.has(url.host)) return Promise.resolve({ effect: "read", paths: [], summary });
    // "network" with sandboxed: true is the policy's "asks for network access" case: asked, never remembered.
    return Promise.resolve({
      effect: "network",
      paths: [],
      sandboxed: true,
      summary,
      preview: { kind: "command", command: `fetch ${url.href}  (first fetch from ${url.host})` },
    });
  };
  const run = async (args: WebFetchArgs, ctx: ToolContext): Promise<ToolResult> => {
    const url = checkedUrl(args.url);
    approvedHosts.add(url.host); // run only follows approval: later calls to this host need no new yes
    const started = performance.now();
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
    await using fetched = await fetchChecked(url, signal, options).catch((error): never => {
      if (error instanceof ToolError) throw error;
      if (ctx.signal.aborted) throw new ToolError("cancelled by the user", "cancelled");
      if (signal.aborted) throw new ToolError(`no answer within ${FETCH_TIMEOUT_MS / 1000} s`, "timeout");
      // Deno's own message is "fetch failed"; the cause says why (refused, certificate not valid, …).
      const { message, cause } = error as Error;
      throw new ToolError(
        `could not fetch ${url.href}: ${cause instanceof Error ? cause.message : message}`,
        "io",
      );
    });
    const response = fetched.response;
    const text = await pageText(response, signal);
    const web = { status: response.status, url: response.url, bytes: text.bytes };
    const details = { durationMs: Math.round(performance.now() - started), web };
    if (!response.ok) return failedPage(response, text.body, details);
    const max = args.max_chars ?? DEFAULT_MAX_CHARS;
    const cut = text.body.length > max ? `\n[cut at ${max} of ${text.body.length} characters]` : "";
    const header = `URL: ${response.url}\nStatus: ${response.status}\nContent-Type: ${text.type}\n\n`;
    return {
      content: header + text.body.slice(0, max) + cut + (text.truncated ? "\n[page cut at 5 MB]" : ""),
      details,
    };
  };
  return {
    name: "web_fetch",
    description,
    parameters,
    inspect,
    run,
  };
}

/** Characters of an error page's text kept after the status line. */
const ERROR_PAGE_CHARS = 2_000;

/** An error status as an error result naming it (a 404 or 410 as not_found), with the start of the page. */
function failedPage(response: Response, body: string, details: ToolDetails): ToolResult {
  const { status, statusText, url } = response;
  const gone = status === 404 || status === 410;
  const hint = gone
    ? "no page at this URL; check it, or search for the page's current address"
    : status === 401 || status === 403
    ? "the server refuses to show this page without a login"
    : status === 429 || status >= 500
    ? "the server is busy or failing; try again later, or another source"
    : "the server refused the request";
  const words = `HTTP ${status}${statusText ? ` ${statusText}` : ""} from ${url}: ${hint}`;
  const page = body.trim() === "" ? "" : `\n\n${body.trim().slice(0, ERROR_PAGE_CHARS)}`;
  return { content: words + page, details, error: { kind: gone ? "not_found" : "io" } };
}

function checkedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(
      `"${text.slice(0, 200)}" is not a URL; send a full http:// or https:// URL`,
      "bad_arguments",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError(`only http and https URLs can be fetched (got ${url.protocol})`, "refused");
  }
  if (url.username || url.password) throw new ToolError("URLs with credentials are not fetched", "refused");
  return url;
}

/**
 * Follows redirects by hand so each hop's scheme and address are checked before it is requested, and
 * connects each hop to the addresses checked for it (see pinned_fetch.ts).
 */
async function fetchChecked(
  start: URL,
  signal: AbortSignal,
  options: WebFetchOptions,
): Promise<PinnedResponse> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const addresses = await checkedAddresses(url, options);
    const fetched = await pinnedFetch(url, addresses, {
      redirect: "manual",
      signal,
      credentials: "omit",
      headers: { "user-agent": "tern-web-fetch/0.1", accept: "text/html, text/*;q=0.9, */*;q=0.5" },
    }, options);
    const location = fetched.response.headers.get("location");
    const status = fetched.response.status;
    if (status < 300 || status > 399 || location === null) return fetched;
    await fetched.response.body?.cancel();
    await fetched[Symbol.asyncDispose]();
    url = checkedUrl(new URL(location, url).href);
  }
  throw new ToolError(`more than ${MAX_REDIRECTS} redirects from ${start.href}`, "refused");
}

/** The addresses `url` may be fetched from: its host resolved once, none of them local unless allowed. */
async function checkedAddresses(url: URL, options: WebFetchOptions): Promise<string[]> {
  const allowLocal = options.allowLocal === true;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const local = "is a local or private address; tern fetches only public pages unless started with " +
    "--allow-local-fetch";
  if (!allowLocal && isLocalName(host)) throw new ToolError(`${url.host} ${local}`, "refused");
  const literal = /^[\d.]+$/.test(host) || host.includes(":");
  const addresses = literal ? [host] : await (options.resolve ?? resolveDns)(host);
  if (addresses.length === 0) throw new ToolError(`${url.host} has no address`, "not_found");
  if (!allowLocal && addresses.some(isLocalAddress)) throw new ToolError(`${url.host} ${local}`, "refused");
  return addresses;
}

async function resolveDns(host: string): Promise<string[]> {
  const answers = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
  return answers.flatMap((answer) => (answer.status === "fulfilled" ? answer.value : []));
}

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-yaml|yaml|toml)\b|[^;]*\+(json|xml)\b)/i;

/** The body as text (markdown for HTML), at most MAX_BODY_BYTES of it; binary is refused. */
async function pageText(response: Response, signal: AbortSignal) {
  const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "" && !TEXT_TYPES.test(type) && type !== "application/xhtml+xml") {
    await response.body?.cancel();
    throw new ToolError(`${response.url} is ${type}, not text; web_fetch reads only text pages`, "binary");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const reader = response.body?.getReader();
  try {
    while (reader) {
      if (signal.aborted) throw new ToolError(`the page took over ${FETCH_TIMEOUT_MS / 1000} s`, "timeout");
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
      if (size >= MAX_BODY_BYTES) {
        truncated = true;
        break;
      }
    }
  } finally {
    await reader?.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.length), 0);
  const raw = new TextDecoder().decode(bytes.subarray(0, MAX_BODY_BYTES));
  if (raw.includes("\0")) {
    throw new ToolError(`${response.url} looks binary; web_fetch reads only text`, "binary");
  }
  const html = type === "text/html" || type === "application/xhtml+xml" || (type === "" && /^\s*</.test(raw));
  // The HTML converter is loaded on the first page that needs it, not at every start of tern.
  const body = html ? (await import("./web/html.ts")).htmlToMarkdown(raw, response.url) : raw;
  return { type: type || "unknown", body, truncated, bytes: size };
}
