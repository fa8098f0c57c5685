// @ts-self-types="./_main_content.d.ts"
// A JavaScript file with its own declaration: linkedom's and Readability's types reference the DOM lib,
// which would break Deno's own types everywhere if the type checker saw them.
import { npmPackage } from "../../npm.ts";

const [{ Readability }, { parseHTML }] = await Promise.all([
  npmPackage("@mozilla/readability"),
  npmPackage("linkedom"),
]);

/** Text an article needs for Readability's pick to be trusted over the whole page. */
const MIN_ARTICLE_CHARS = 200;
/** Elements that are never content. */
const NEVER_CONTENT = "script,style,noscript,template,iframe,object,embed,svg,form,link,meta";
/** Page chrome, dropped when the whole body is kept. */
const CHROME = "nav,header,footer,aside,[role=navigation],[role=banner],[role=contentinfo]";

/** See the declaration file. */
export function mainContent(html, url) {
  const { document } = parseHTML(asDocument(html));
  absolutise(document, url);
  for (const node of document.querySelectorAll(NEVER_CONTENT)) node.remove();
  const article = new Readability(document.cloneNode(true)).parse();
  const title = (article?.title ?? document.title ?? "").trim() || undefined;
  if (article?.content && (article.textContent ?? "").trim().length >= MIN_ARTICLE_CHARS) {
    return { html: article.content, title };
  }
  for (const node of document.querySelectorAll(CHROME)) node.remove();
  return { html: document.body?.innerHTML ?? String(document), title };
}

/**
 * The page with an explicit <body>: linkedom reads a page without one (a fragment, or tags left out as HTML
 * allows) as an empty document. The head's parts (and a loose <title>) go into a head of their own.
 */
function asDocument(html) {
  if (/<body[\s>]/i.test(html)) return html;
  let head = "";
  const body = html.replace(/<!doctype[^>]*>|<\/?html[^>]*>/gi, "").replace(
    /<head[\s>][\s\S]*?<\/head>|<title[\s>][\s\S]*?<\/title>/gi,
    (part) => (head += part.replace(/<\/?head[^>]*>/gi, ""), ""),
  );
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

/** Rewrites links and image sources against the page's base; script and data links lose their target. */
function absolutise(document, url) {
  const declared = document.querySelector("base[href]")?.getAttribute("href") ?? undefined;
  const base = resolve(declared, url) ?? url;
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]]) {
    for (const element of document.querySelectorAll(selector)) {
      const absolute = resolve(element.getAttribute(attribute) ?? "", base);
      if (absolute === undefined || /^(javascript|data|vbscript):/i.test(absolute)) {
        element.removeAttribute(attribute);
      } else element.setAttribute(attribute, absolute);
    }
  }
}

function resolve(value, base) {
  if (value === undefined) return undefined;
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}
