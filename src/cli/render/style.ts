/**
 * ANSI styles for the terminal, as node:util's styleText writes them (its output byte for byte, tested), and
 * Node's check of whether a stream takes colour. Written here because loading node:util costs every start a
 * tenth of its time in Deno's Node compatibility code.
 */

/** Each style's opening and closing SGR code. */
const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  inverse: [7, 27],
  strikethrough: [9, 29],
  black: [30, 39],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  white: [37, 39],
  gray: [90, 39],
} as const;

/** A style name, or several applied in order. */
export type Style = keyof typeof CODES | (keyof typeof CODES)[];

/**
 * `text` in `style`. A closing code inside `text` (a nested style ending) would end this style too, so it
 * reopens there; one at the very end is left, as this style's own close follows at once.
 */
export function styleText(style: Style, text: string): string {
  let left = "";
  let right = "";
  for (const name of typeof style === "string" ? [style] : style) {
    const [open, close] = CODES[name];
    const opening = `\x1b[${open}m`;
    const closing = `\x1b[${close}m`;
    text = reopened(text, closing, close === 22 ? closing + opening : opening);
    left += opening;
    right = closing + right;
  }
  return left + text + right;
}

/** `text` with each `closing` but a last one at its very end replaced by `reopen`. */
function reopened(text: string, closing: string, reopen: string): string {
  const end = text.endsWith(closing) ? text.length - closing.length : text.length;
  return text.slice(0, end).replaceAll(closing, reopen) + text.slice(end);
}

/**
 * Whether styles written to standard output would show, as Node decides it: FORCE_COLOR set (and not 0 or
 * false) says yes; otherwise a terminal, unless NO_COLOR, NODE_DISABLE_COLORS or TERM=dumb says no.
 */
export function stdoutTakesColor(): boolean {
  const forced = Deno.env.get("FORCE_COLOR");
  if (forced !== undefined) return forced !== "0" && forced !== "false";
  if (Deno.env.get("NO_COLOR") || Deno.env.get("NODE_DISABLE_COLORS")) return false;
  return Deno.env.get("TERM") !== "dumb" && Deno.stdout.isTerminal();
}
