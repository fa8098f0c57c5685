/**
 * Prompt-cache friendliness of a run's requests (issue 31): the share of requests after the first whose
 * body keeps everything the previous one sent (system prompt, tools, settings byte for byte, and every
 * earlier message unchanged, new ones only appended). Anthropic's cache breakpoint moves to the latest
 * message by design (it is not content), so `cache_control` is left out of the comparison.
 */

/** The body key of each wire's growing list. */
const LISTS: Record<string, string> = { chat: "messages", anthropic: "messages", responses: "input" };

/** `value` as JSON without `cache_control` at any depth. */
function content(value: unknown): string {
  return JSON.stringify(value, (key, inner) => (key === "cache_control" ? undefined : inner));
}

/** Whether `next` keeps all of `previous` (see the module note); `list` is the growing list's key. */
export function keepsPrefix(previous: Record<string, unknown>, next: Record<string, unknown>, list: string) {
  if (content({ ...previous, [list]: undefined }) !== content({ ...next, [list]: undefined })) return false;
  const before = previous[list] as unknown[];
  const after = next[list] as unknown[];
  return after.length >= before.length && before.every((item, i) => content(item) === content(after[i]));
}

/** The share (0-1) of `bodies` after the first that keep their predecessor's prefix, on wire `api`. */
export function prefixShare(bodies: Record<string, unknown>[], api: string): number {
  if (bodies.length < 2) return 1;
  let kept = 0;
  for (let i = 1; i < bodies.length; i++) if (keepsPrefix(bodies[i - 1], bodies[i], LISTS[api])) kept++;
  return kept / (bodies.length - 1);
}
