/**
 * Syntax colours for code fences, from highlight.js's common languages. The library (about 40 ms to load, far
 * more on a busy machine) is loaded in the background from the REPL's start, and a task waits for it, a
 * bounded time, before its answer can draw a code block; headless runs never load it. Code drawn before it
 * has loaded (the bound passed, or the package could not be loaded) is shown uncoloured.
 */
import { type Style, styleText } from "./style.ts";
import type { HighlightJs } from "./_load_highlight.js";

type Color = Style;

let highlighter: HighlightJs | undefined;
let loading: Promise<void> | undefined;

/** Starts loading the highlighter (once); resolves when it can be used (or failed to load: code stays plain). */
export function loadHighlighter(): Promise<void> {
  loading ??= import("./_load_highlight.js").then((module) => module.loadHighlightJs()).then(
    (loaded) => void (highlighter = loaded),
    () => {}, // without colours, code is still shown
  );
  return loading;
}

/** How long a task waits for the highlighter to load before its answer is drawn without it. */
export const HIGHLIGHTER_WAIT_MS = 3000;

/**
 * Starts loading the highlighter and resolves once it has loaded (true), or failed to, or `waitMs` passed
 * first (false): the bound keeps a slow or hanging download from holding the answer back.
 */
export async function highlighterReady(waitMs = HIGHLIGHTER_WAIT_MS): Promise<boolean> {
  if (highlighter) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => timer = setTimeout(resolve, waitMs));
  try {
    await Promise.race([loadHighlighter(), late]);
  } finally {
    clearTimeout(timer);
  }
  return highlighter !== undefined;
}

/** Scope → colour; scopes not listed keep the surrounding colour. */
const COLORS: Record<string, Color> = {
  keyword: "magenta",
  built_in: "cyan",
  type: "cyan",
  literal: "yellow",
  number: "yellow",
  string: "green",
  regexp: "green",
  symbol: "green",
  comment: "gray",
  doctag: "gray",
  meta: "gray",
  title: "blue",
  "title.function": "blue",
  "title.class": "cyan",
  attr: "yellow",
  attribute: "yellow",
  variable: "red",
  "template-variable": "red",
  tag: "red",
  name: "red",
  section: "bold",
  addition: "green",
  deletion: "red",
};

/**
 * `code` coloured as `language` (already terminal-safe text in, ANSI out); undefined when the highlighter
 * has not loaded or does not know the language.
 */
export function highlightCode(code: string, language: string): string | undefined {
  if (!highlighter || language === "" || !highlighter.getLanguage(language)) return undefined;
  const html = highlighter.highlight(code, { language, ignoreIllegals: true }).value;
  return htmlToAnsi(html);
}

/** highlight.js's `<span class="hljs-…">` markup → SGR colours; nested spans restore the outer colour. */
export function htmlToAnsi(html: string): string {
  const stack: (Color | undefined)[] = [];
  let out = "";
  for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith("<span")) {
      const scope = /class="hljs-([^" ]+)/.exec(part)?.[1] ?? "";
      stack.push(COLORS[scope] ?? COLORS[scope.split(".")[0]] ?? stack.at(-1));
    } else if (part === "</span>") stack.pop();
    else if (part !== "") {
      const text = decodeEntities(part);
      const color = stack.at(-1);
      // Colour each line apart so a line never starts inside another line's colour.
      out += color ? text.split("\n").map((l) => l && styleText(color, l)).join("\n") : text;
    }
  }
  return out;
}

/** The few entities highlight.js and markdown text use. */
export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27|#(\d+));/g, (_, name: string, code?: string) => {
    if (code) return String.fromCodePoint(Number(code));
    return ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" } as Record<string, string>)[
      name
    ];
  });
}
