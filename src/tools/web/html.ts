/** HTML to markdown, behind our own small module so the converter is one file to swap. */
import TurndownService from "turndown";

let service: TurndownService | undefined;

/** The page's readable content as markdown: scripts, styles and page chrome dropped. */
export function htmlToMarkdown(html: string): string {
  service ??= makeService();
  return service.turndown(html).replace(/\n{3,}/g, "\n\n").trim();
}

function makeService(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
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
