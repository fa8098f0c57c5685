/**
 * HTML to markdown, behind our own small module so the converters are one file to swap: the page's main
 * content (Readability over a linkedom DOM, see _main_content.js), tables as GitHub-flavoured markdown
 * (turndown with Joplin's GFM plugin), links and images absolute.
 */
import { gfm } from "@joplin/turndown-plugin-gfm";
import TurndownService from "turndown";
import { mainContent } from "./_main_content.js";

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
  const turndown = new TurndownService({
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
