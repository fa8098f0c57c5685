/**
 * A small `.env` reader: `KEY=VALUE` lines, an optional `export ` prefix, `#` comments, single quotes
 * (literal) and double quotes (with `\n`, `\r`, `\t`, `\"`, `\\` escapes). Values are one line each.
 */

/** The variables read from a `.env` file and the lines that could not be read. */
export interface DotenvResult {
  values: Record<string, string>;
  /** One line per skipped line, e.g. `.env line 3: expected KEY=VALUE`; never echoes the value. */
  warnings: string[];
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

/** Parses the text of a `.env` file; malformed lines are skipped and reported, later keys win. */
export function parseDotenv(text: string, fileName = ".env"): DotenvResult {
  const values: Record<string, string> = {};
  const warnings: string[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const parsed = parseLine(line);
    if (typeof parsed === "string") {
      warnings.push(`${fileName} line ${index + 1}: ${parsed}`);
    } else {
      values[parsed.key] = parsed.value;
    }
  });
  return { values, warnings };
}

/** Reads `.env` in `root`; a missing file gives no values and no warnings, an unreadable one a warning. */
export async function loadDotenv(root: string): Promise<DotenvResult> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${root}/.env`); // root: a real, absolute path
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { values: {}, warnings: [] };
    const reason = error instanceof Error ? error.message : String(error);
    return { values: {}, warnings: [`.env: could not be read (${reason}); ignored`] };
  }
  return parseDotenv(text);
}

/** One trimmed, non-comment line → its key and value, or the reason it is malformed. */
function parseLine(line: string): { key: string; value: string } | string {
  const body = line.replace(/^export\s+/, "");
  const eq = body.indexOf("=");
  if (eq < 0) return "expected KEY=VALUE";
  const key = body.slice(0, eq).trim();
  if (!KEY.test(key)) return "the name before '=' must be letters, digits and '_'";
  const value = parseValue(body.slice(eq + 1).trim());
  return typeof value === "string" ? { key, value } : value.error;
}

/** The value part after `=`: quoted or bare, with an optional trailing ` # comment`. */
function parseValue(text: string): string | { error: string } {
  const quote = text[0];
  if (quote !== '"' && quote !== "'") return text.replace(/(^|\s+)#.*$/, "");
  let value = "";
  for (let i = 1; i < text.length; i++) {
    const char = text[i];
    if (char === quote) {
      const rest = text.slice(i + 1).trim();
      if (rest !== "" && !rest.startsWith("#")) return { error: "unexpected text after the closing quote" };
      return value;
    }
    if (char === "\\" && quote === '"' && i + 1 < text.length) {
      const next = text[++i];
      value += ESCAPES[next] ?? `\\${next}`;
    } else {
      value += char;
    }
  }
  return { error: `missing closing ${quote === '"' ? "double" : "single"} quote` };
}
