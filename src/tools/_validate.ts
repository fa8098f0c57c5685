/**
 * A small JSON-Schema subset validator (type, required, properties, additionalProperties: false, items,
 * minimum/maximum, enum) whose failures are sentences for the model: tool, field, what came, what to send.
 */

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Shows a received value briefly: `"ten"`, `12`, `null`, `an array`, `an object`. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (isObject(value)) return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function bounds(schema: Schema): string {
  const { minimum: min, maximum: max } = schema;
  if (typeof min === "number" && typeof max === "number") return ` from ${min} to ${max}`;
  if (typeof min === "number") return ` ≥ ${min}`;
  if (typeof max === "number") return ` ≤ ${max}`;
  return "";
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

/** What to send, as a phrase: "an integer ≥ 1", "one of "a", "b"". */
function expectation(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.map((type) => `${ARTICLE[String(type)] ?? String(type)}${bounds(schema)}`).join(" or ");
}

function typeMatches(type: unknown, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function fitsScalar(schema: Schema, value: unknown): boolean {
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => typeMatches(type, value))) return false;
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) return false;
    if (typeof schema.maximum === "number" && value > schema.maximum) return false;
  }
  return true;
}

/** "The exact text to replace." → "the exact text to replace", to sit inside a sentence. */
function asClause(description: unknown): string {
  if (typeof description !== "string" || description === "") return "";
  const text = description.replace(/\.$/, "");
  const lower = /^[A-Z][a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
  return `: ${lower}`;
}

function checkObject(schema: Schema, value: Record<string, unknown>, at: string, out: string[]): void {
  const properties = isObject(schema.properties) ? schema.properties as Record<string, Schema> : {};
  const required = Array.isArray(schema.required) ? schema.required as string[] : [];
  for (const name of required) {
    if (value[name] === undefined) {
      const sub = properties[name] ?? {};
      const types = Array.isArray(sub.type) ? sub.type.join(" or ") : String(sub.type ?? "any value");
      out.push(`field "${at}${name}" is required (${types})${asClause(sub.description)}`);
    }
  }
  for (const [name, field] of Object.entries(value)) {
    if (name in properties) check(properties[name], field, `${at}${name}`, out);
    else if (schema.additionalProperties === false) {
      const known = Object.keys(properties);
      out.push(
        `unknown field "${at}${name}"; the fields are: ${known.length > 0 ? known.join(", ") : "(none)"}`,
      );
    }
  }
}

/** Fields that hold file text, where a NUL byte is data; everywhere else it would reach a path or an argv. */
const FILE_TEXT_FIELDS = new Set(["content", "old_text", "new_text"]);

function check(schema: Schema, value: unknown, at: string, out: string[]): void {
  if (typeof value === "string" && value.includes("\0") && !FILE_TEXT_FIELDS.has(at.replace(/^.*\./, ""))) {
    out.push(
      `field "${at}" holds a NUL byte (\\0), which no command, path or pattern can carry; send it without ` +
        "(to match binary data, search for the bytes around it)",
    );
    return;
  }
  if (!fitsScalar(schema, value)) {
    const subject = at === "" ? "the arguments" : `field "${at}"`;
    out.push(`${subject} must be ${expectation(schema)}, got ${shown(value)}`);
    return;
  }
  if (isObject(value)) checkObject(schema, value, at === "" ? "" : `${at}.`, out);
  if (Array.isArray(value) && isObject(schema.items)) {
    value.forEach((item, i) => check(schema.items as Schema, item, `${at}[${i}]`, out));
  }
}

/** Validates tool arguments; returns one model-facing sentence per problem, [] when they are valid. */
export function validateArgs(tool: string, schema: Schema, args: unknown): string[] {
  const out: string[] = [];
  check(schema, args, "", out);
  return out.map((problem) => `${tool}: ${problem}`);
}
