/** Small JSON helpers the wire modules share (private to src/llm). */

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` when it is a non-empty string. */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** `value` when it is a finite number. */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The JSON object a tool call's raw arguments hold; `{}` for empty or invalid text (the model saw its error). */
export function argumentsObject(raw: string): Json {
  if (raw.trim() === "") return {};
  try {
    const parsed = JSON.parse(raw);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Tools sorted by name, so the serialised prefix of every request is the same and caches. */
export function sortedByName<T extends { name: string }>(tools: readonly T[]): T[] {
  return [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const encoder = new TextEncoder();

/**
 * The UTF-8 bytes of `JSON.stringify(body)`, as pieces in order, with the array under `key` written from
 * `items`: each element's JSON bytes after a comma (`,{…}`, the first one's comma skipped). A wire that
 * keeps each message's bytes joins them instead of serialising and encoding the whole history again.
 */
export function jsonParts(body: Json, key: string, items: readonly Uint8Array[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let text = "";
  for (const [name, value] of Object.entries(body)) {
    const json = name === key ? "[" : JSON.stringify(value);
    // JSON.stringify leaves out a property whose value has no JSON (undefined, a function).
    if (json === undefined) continue;
    text += `${text === "" && parts.length === 0 ? "{" : ","}${JSON.stringify(name)}:${json}`;
    if (name !== key) continue;
    parts.push(encoder.encode(text));
    items.forEach((item, i) => parts.push(i === 0 ? item.subarray(1) : item));
    text = "]";
  }
  parts.push(encoder.encode(`${text === "" && parts.length === 0 ? "{" : text}}`));
  return parts;
}
