/**
 * Markdown for the terminal, streamed and append-only: text arrives in pieces, each block (paragraph,
 * heading, list, quote, code fence, table, rule) is printed once the next one has begun (or the answer
 * ended), styled and wrapped to the width. Nothing printed is ever redrawn, so scrollback stays whole.
 * Parsing is marked's lexer; everything from the model is made terminal-safe before it is styled.
 */
import { type Style, styleText } from "./style.ts";
import type { Token, Tokens } from "marked";
import { terminalSafe } from "./terminal_safe.ts";
import { decodeEntities, highlightCode, loadHighlighter } from "./highlight.ts";
import { pad, visibleWidth, wrapText } from "./_text_layout.ts";
import { npmPackage } from "../../npm.ts";

const { lexer } = await npmPackage("marked");

type Color = Style;

/** How blocks are drawn: `width` in cells; without `color`, structure only (no SGR codes). */
export interface MarkdownOptions {
  width: number;
  color: boolean;
}

/** Feeds streamed text in, gets printable rendered blocks out. */
export class MarkdownStream {
  #pending = "";
  #options: MarkdownOptions;
  #blocks = 0;

  constructor(options: MarkdownOptions) {
    this.#options = options;
  }

  /** Adds streamed text; returns what is ready to print (complete blocks), possibly "". */
  push(text: string): string {
    this.#pending += text;
    // A block can only end at a line end; between them nothing new can be complete.
    if (!text.includes("\n")) return "";
    if (this.#pending.includes("```") || this.#pending.includes("~~~")) void loadHighlighter();
    const tokens = lexer(this.#pending);
    // The last block may still grow (a paragraph, a list, an open fence): keep it until another follows.
    while (tokens.length > 0 && tokens.at(-1)!.type === "space") tokens.pop();
    const done = tokens.slice(0, -1);
    this.#pending = this.#pending.slice(done.reduce((sum, token) => sum + token.raw.length, 0));
    return this.#print(done);
  }

  /** The answer ended: prints whatever is left. */
  end(): string {
    const tokens = lexer(this.#pending);
    this.#pending = "";
    return this.#print(tokens);
  }

  #print(tokens: Token[]): string {
    let out = "";
    for (const token of tokens) {
      const lines = renderBlock(token, this.#options);
      if (lines === undefined) continue;
      if (this.#blocks++ > 0) out += "\n";
      out += lines.map((line) => line + "\n").join("");
    }
    return out;
  }
}

/** Renders a whole markdown text at once (tests, and anything not streamed). */
export function renderMarkdown(text: string, options: MarkdownOptions): string {
  const stream = new MarkdownStream(options);
  return stream.push(text) + stream.end();
}

function paint(options: MarkdownOptions, color: Color, text: string): string {
  return options.color && text !== "" ? styleText(color, text) : text;
}

/** One block as lines (no trailing newlines); undefined for blocks that print nothing (space, definitions). */
function renderBlock(token: Token, options: MarkdownOptions): string[] | undefined {
  const width = Math.max(10, options.width);
  switch (token.type) {
    case "space":
    case "def":
      return undefined;
    case "heading": {
      const text = inline((token as Tokens.Heading).tokens, options);
      const depth = (token as Tokens.Heading).depth;
      const style: Color = depth === 1 ? ["bold", "underline"] : depth === 2 ? ["bold", "cyan"] : ["bold"];
      // Without colour a heading keeps its markdown marks, or it would read as one more paragraph.
      if (!options.color) return wrapText(`${"#".repeat(depth)} ${text}`, width);
      return wrapText(text, width).map((line) => paint(options, style, line));
    }
    case "paragraph":
    case "text": {
      const t = token as Tokens.Paragraph | Tokens.Text;
      return wrapText(t.tokens ? inline(t.tokens, options) : plain(t.text), width);
    }
    case "list":
      return renderList(token as Tokens.List, options);
    case "blockquote": {
      const inner = renderBlocks((token as Tokens.Blockquote).tokens, { ...options, width: width - 2 });
      return inner.map((line) => paint(options, "gray", "│ ") + paint(options, "italic", line));
    }
    case "code":
      return renderCode(token as Tokens.Code, options);
    case "table":
      return renderTable(token as Tokens.Table, options);
    case "hr":
      return [paint(options, "gray", "─".repeat(Math.min(width, 60)))];
    case "html":
      return wrapText(terminalSafe((token as Tokens.HTML).text.trimEnd()), width);
    default:
      return wrapText(terminalSafe(token.raw.trimEnd()), width);
  }
}

/** Several blocks, a blank line between them (tight lists' items stay together). */
function renderBlocks(tokens: Token[], options: MarkdownOptions, gap = true): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const lines = renderBlock(token, options);
    if (lines === undefined) continue;
    if (gap && out.length > 0) out.push("");
    out.push(...lines);
  }
  return out;
}

function renderList(list: Tokens.List, options: MarkdownOptions): string[] {
  const start = typeof list.start === "number" ? list.start : 1;
  const markers = list.items.map((item, i) => {
    if (item.task) return item.checked ? "☑" : "☐";
    return list.ordered ? `${start + i}.` : "•";
  });
  const indent = Math.max(...markers.map((marker) => visibleWidth(marker))) + 1;
  const out: string[] = [];
  list.items.forEach((item, i) => {
    // A task item's checkbox is its own token; the marker already shows it.
    const tokens = item.tokens.filter((token) => token.type !== "checkbox");
    const body = renderBlocks(tokens, { ...options, width: options.width - indent }, list.loose);
    if (list.loose && i > 0) out.push("");
    body.forEach((line, j) => {
      const lead = j === 0 ? pad(paint(options, "cyan", markers[i]), indent, "left") : " ".repeat(indent);
      out.push(line === "" ? "" : lead + line);
    });
  });
  return out;
}

function renderCode(code: Tokens.Code, options: MarkdownOptions): string[] {
  const language = (code.lang ?? "").split(/\s/)[0];
  const safe = terminalSafe(code.text.replaceAll("\t", "  "));
  const colored = options.color ? highlightCode(safe, language) : undefined;
  const lines = (colored ?? safe).split("\n").map((line) =>
    "  " + (colored ? line : paint(options, "yellow", line))
  );
  // Without colour the fence stays, so the code stands apart from the text around it.
  if (!options.color) return [`  \`\`\`${terminalSafe(language)}`, ...lines, "  ```"];
  return language === "" ? lines : [paint(options, "gray", `  ${terminalSafe(language)}`), ...lines];
}

/** An aligned table; too wide for the terminal, each row becomes a small list of "header: value". */
function renderTable(table: Tokens.Table, options: MarkdownOptions): string[] {
  const header = table.header.map((cell) => inline(cell.tokens, options));
  const rows = table.rows.map((row) => row.map((cell) => inline(cell.tokens, options)));
  const widths = header.map((cell, i) =>
    Math.max(visibleWidth(cell), ...rows.map((row) => visibleWidth(row[i] ?? "")))
  );
  const total = widths.reduce((sum, w) => sum + w, 0) + 3 * (widths.length - 1);
  if (total > options.width) {
    const out: string[] = [];
    for (const row of rows) {
      if (out.length > 0) out.push("");
      row.forEach((cell, i) => {
        const lines = wrapText(`${paint(options, "bold", header[i] ?? "")}: ${cell}`, options.width - 2);
        out.push(...lines.map((line, j) => (j === 0 && i === 0 ? "• " : "  ") + line));
      });
    }
    return out;
  }
  const bar = paint(options, "gray", " │ ");
  const line = (cells: string[]) =>
    cells.map((cell, i) => pad(cell, widths[i], table.align[i])).join(bar).trimEnd();
  return [
    line(header.map((cell) => paint(options, "bold", cell))),
    paint(options, "gray", widths.map((w) => "─".repeat(w)).join("─┼─")),
    ...rows.map(line),
  ];
}

/** Inline tokens → one styled string ("\n" only for hard breaks). */
function inline(tokens: Token[] | undefined, options: MarkdownOptions): string {
  return (tokens ?? []).map((token) => inlineToken(token, options)).join("");
}

function inlineToken(token: Token, options: MarkdownOptions): string {
  switch (token.type) {
    case "strong":
      return paint(options, "bold", inline((token as Tokens.Strong).tokens, options));
    case "em":
      return paint(options, "italic", inline((token as Tokens.Em).tokens, options));
    case "del":
      return paint(options, "strikethrough", inline((token as Tokens.Del).tokens, options));
    case "codespan": {
      const code = plain((token as Tokens.Codespan).text);
      return options.color ? paint(options, "yellow", code) : `\`${code}\``;
    }
    case "br":
      return "\n";
    case "link": {
      const link = token as Tokens.Link;
      const label = inline(link.tokens, options);
      const href = terminalSafe(link.href);
      if (link.text === link.href || `mailto:${link.text}` === link.href) {
        return paint(options, "cyan", label);
      }
      return `${paint(options, "cyan", label)} ${paint(options, "gray", `(${href})`)}`;
    }
    case "image": {
      const image = token as Tokens.Image;
      return paint(options, "gray", `[image: ${plain(image.text)}] (${terminalSafe(image.href)})`);
    }
    case "text": {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens, options) : plain(text.text);
    }
    case "escape":
      return plain((token as Tokens.Escape).text);
    default:
      return plain(token.raw);
  }
}

/** Source text as shown: entities decoded, soft line breaks as spaces, control characters made visible. */
function plain(text: string): string {
  return terminalSafe(decodeEntities(text).replace(/\n/g, " "));
}
