/**
 * HTML to markdown, behind our own small module so the converters are one file to swap: the page's main
 * content (Readability over a linkedom DOM, see _main_content.js), tables as GitHub-flavoured markdown
 * (turndown with Joplin's GFM plugin), links and images absolute.
 */
import type TurndownService from "turndown";
import { mainContent } from "./_main_content.js";
import { npmPackage } from "../../npm.ts";

const { gfm } = await npmPackage("@joplin/turndown-plugin-gfm");
const Turndown = await loadTurndown();
let service: TurndownService | undefined;

/** The page's readable content as markdown; `url` (the final URL) makes its links and images absolute. */
export function htmlToMarkdown(html: string, url?: string): string {
  const content = mainContent(html, url);
  service ??= makeService();
  let markdown = service.turndown(content.html).replace(/\n{3,}/g, "\n\n").trim();
  const title = content.title;
  if (title && !markdown.startsWith(`# ${title}`)) markdown = `# ${title}\n\n${markdown}`;
  return markdown;
}

function makeService(): TurndownService {
  const turndown = new Turndown({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  turndown.use(gfm);
  turndown.remove([
    "script",
    "style",
    "noscript",
    "template",
    "iframe",
    "object",
    "embed",
    "head",
    "svg",
    "form",
  ]);
  return turndown;
}

/**
 * Loads turndown. Its HTML parser, domino, sets one prototype the legacy way while it loads
 * (`DOMException.prototype.__proto__ = Error.prototype`), which Deno disables: the write would leave
 * domino's DOMException no Error, and it marks the whole process, so every later crash (in a test run: every
 * later failing test) ends with a notice blaming `__proto__`. For the length of this import only, a write of
 * `Error.prototype` through `__proto__` sets the prototype; any other use goes to Deno's own accessor.
 */
async function loadTurndown(): Promise<typeof TurndownService> {
  const deno = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");
  if (!deno?.configurable || !deno.set) return (await npmPackage("turndown")).default;
  const set = deno.set;
  Object.defineProperty(Object.prototype, "__proto__", {
    ...deno,
    set(this: object, value: unknown) {
      if (value === Error.prototype) Object.setPrototypeOf(this, value);
      else set.call(this, value);
    },
  });
  try {
    return (await npmPackage("turndown")).default;
  } finally {
    Object.defineProperty(Object.prototype, "__proto__", deno);
  }
}
