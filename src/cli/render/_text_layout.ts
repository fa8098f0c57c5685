/** Measuring and wrapping styled terminal text: widths ignore SGR colour codes and count wide characters as two. */

// deno-lint-ignore no-control-regex -- SGR sequences are what we skip
const SGR = /\x1b\[[0-9;]*m/g;

/** The text without colour codes. */
export function stripStyle(text: string): string {
  return text.replace(SGR, "");
}

/** Cells a string takes on screen: colour codes count zero, East Asian wide characters and emoji two. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const char of stripStyle(text)) width += charWidth(char.codePointAt(0) ?? 0);
  return width;
}

function charWidth(code: number): number {
  if (
    code < 0x20 || (code >= 0x300 && code <= 0x36f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)
  ) {
    return 0;
  }
  const wide = (code >= 0x1100 && code <= 0x115f) || (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

/**
 * Wraps styled text to `width` cells: hard line breaks ("\n") are kept, words move to the next line whole,
 * a word longer than a line is cut. Colour codes travel with their words.
 */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  for (const hard of text.split("\n")) {
    let line = "";
    let lineWidth = 0;
    for (const word of hard.split(/ +/)) {
      if (word === "") continue;
      let rest = word;
      let restWidth = visibleWidth(rest);
      if (lineWidth > 0 && lineWidth + 1 + restWidth > width) {
        out.push(line);
        line = "";
        lineWidth = 0;
      }
      while (restWidth > width) {
        const [head, tail] = cutAt(rest, width - lineWidth - (lineWidth > 0 ? 1 : 0));
        out.push(lineWidth > 0 ? `${line} ${head}` : head);
        line = "";
        lineWidth = 0;
        rest = tail;
        restWidth = visibleWidth(rest);
      }
      line = lineWidth > 0 ? `${line} ${rest}` : rest;
      lineWidth += (lineWidth > 0 ? 1 : 0) + restWidth;
    }
    out.push(line);
  }
  return out;
}

/**
 * Lines printed as they are, except one wider than `width`: wrapped at word boundaries (a terminal would cut
 * it mid-word), its leading indent kept and its continuations indented two cells more.
 */
export function wrapLines(text: string, width: number): string {
  return text.split("\n").map((line) => {
    if (visibleWidth(line) <= width) return line;
    const indent = /^ */.exec(line)![0];
    const room = Math.max(10, width - indent.length - 2);
    return wrapText(line.slice(indent.length), room).map((part, i) =>
      `${indent}${i === 0 ? "" : "  "}${part}`
    ).join("\n");
  }).join("\n");
}

/** Splits styled text after `cells` visible cells (at least one character). */
function cutAt(text: string, cells: number): [string, string] {
  let width = 0;
  let i = 0;
  while (i < text.length) {
    // deno-lint-ignore no-control-regex -- an SGR sequence at i
    const match = text[i] === "\x1b" ? /^\x1b\[[0-9;]*m/.exec(text.slice(i)) : null;
    if (match) {
      i += match[0].length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
    const w = charWidth(char.codePointAt(0) ?? 0);
    if (width + w > Math.max(1, cells) && width > 0) break;
    width += w;
    i += char.length;
  }
  return [text.slice(0, i), text.slice(i)];
}

/** Pads styled text with spaces to `width` cells, on the left when `right`, centred when `center`. */
export function pad(text: string, width: number, align: "left" | "right" | "center" | null): string {
  const gap = Math.max(0, width - visibleWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") return " ".repeat(gap >> 1) + text + " ".repeat(gap - (gap >> 1));
  return text + " ".repeat(gap);
}
