/**
 * Session names (`/rename TEXT`) and finding a session by what the user typed: `tern -r TEXT` and
 * `/resume TEXT` take a name first (the newest session of that name), then a number from the list, then a
 * whole id, then an id's unique prefix.
 */
import { isSessionId } from "./_session_file_lines.ts";

/** The shape of the ids tern makes (newSessionId): a name of that shape would shadow a session. */
const ID_SHAPE = /^\d{8}-\d{6}-[0-9a-f]{4}$/;

/** Longest name, in characters. */
export const MAX_NAME_CHARS = 80;

/** `text` as a session name, or why it cannot be one (in words for the user). */
export function checkedName(text: unknown): { name: string } | { problem: string } {
  if (typeof text !== "string") return { problem: "a name is text" };
  const name = text.replace(/\s+/g, " ").trim();
  if (name === "") return { problem: "a name needs at least one character, e.g. /rename login fix" };
  // deno-lint-ignore no-control-regex -- a name never carries control characters to a terminal
  if (/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(name)) {
    return { problem: "a name cannot hold control or invisible characters" };
  }
  if (name.length > MAX_NAME_CHARS) return { problem: `a name is at most ${MAX_NAME_CHARS} characters` };
  if (/^\d{1,2}$/.test(name) || ID_SHAPE.test(name)) {
    return { problem: "a name cannot be a list number or a session id (tern -r would mistake it)" };
  }
  return { name };
}

/** A session as the finder sees it, newest first. */
export interface Findable {
  id: string;
  name?: string;
}

/** The id `typed` means among `sessions` (newest first), or why none (unknown, or an ambiguous prefix). */
export function findSession(
  sessions: readonly Findable[],
  typed: string,
): { id: string } | { problem: string } {
  const text = typed.trim();
  const named = sessions.find((session) => session.name?.toLowerCase() === text.toLowerCase());
  if (named) return { id: named.id };
  if (/^\d{1,2}$/.test(text) && sessions[Number(text) - 1]) return { id: sessions[Number(text) - 1].id };
  if (sessions.some((session) => session.id === text)) return { id: text };
  const prefixed = text.length >= 4 ? sessions.filter((session) => session.id.startsWith(text)) : [];
  if (prefixed.length === 1) return { id: prefixed[0].id };
  if (prefixed.length > 1) {
    const ids = prefixed.slice(0, 5).map((session) => session.id).join(", ");
    return { problem: `'${text}' starts ${prefixed.length} session ids (${ids}); type more of one` };
  }
  // Left to the loader, which names a missing or unreadable session file in its own words.
  if (isSessionId(text)) return { id: text };
  return { problem: `no session named or numbered '${text}' in this project; tern sessions lists them` };
}
