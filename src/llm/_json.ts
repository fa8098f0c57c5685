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
