/**
 * Bash's ANSI-C quoting (`$'...'`) decoded as bash decodes it, so a command word written `$'\x72m'` reads
 * `rm`: the permission rules match what runs, not how it is spelt.
 */

const SIMPLE: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** One escape at `body[i]` (just past the backslash): its text and how many characters it took. */
function escape(body: string, i: number): { text: string; length: number } {
  const c = body[i] ?? "";
  if (c in SIMPLE) return { text: SIMPLE[c], length: 1 };
  const digits = (pattern: RegExp, from: number, radix: number) => {
    const match = pattern.exec(body.slice(from));
    return match ? { value: parseInt(match[0], radix), length: match[0].length } : undefined;
  };
  const octal = digits(/^[0-7]{1,3}/, i, 8);
  if (octal) return { text: String.fromCharCode(octal.value & 0xff), length: octal.length };
  const forms: Record<string, RegExp> = {
    x: /^[0-9a-fA-F]{1,2}/,
    u: /^[0-9a-fA-F]{1,4}/,
    U: /^[0-9a-fA-F]{1,8}/,
  };
  if (c in forms) {
    const hex = digits(forms[c], i + 1, 16);
    if (!hex) return { text: `\\${c}`, length: 1 };
    const text = hex.value <= 0x10ffff ? String.fromCodePoint(hex.value) : "";
    return { text, length: 1 + hex.length };
  }
  if (c === "c" && i + 1 < body.length) {
    return { text: String.fromCharCode(body.charCodeAt(i + 1) & 0x1f), length: 2 };
  }
  return { text: `\\${c}`, length: 1 };
}

/** The text of an ANSI-C quoted string's body (between `$'` and `'`). */
export function decodeAnsiC(body: string): string {
  let text = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== "\\") {
      text += body[i];
      continue;
    }
    const decoded = escape(body, i + 1);
    text += decoded.text;
    i += decoded.length;
  }
  return text;
}
