/**
 * The model's protocol mistakes, mended before any call runs: tool-call ids that are missing or repeated
 * (strict providers reject a history with duplicate ids), and answers with more calls than any task needs.
 */
import { randomCallId } from "../../llm/call_id.ts";
import type { ToolCall } from "../../llm/types.ts";
import type { Entry } from "../log/conversation.ts";

/** Most calls run from one answer; the rest get an error result saying so (the history stays valid). */
export const MAX_CALLS_PER_TURN = 64;

/** The text a call past the cap gets as its result. */
export function overCapText(total: number): string {
  return `not run: the answer held ${total} tool calls and tern runs at most ${MAX_CALLS_PER_TURN} from one ` +
    `answer. Send the remaining calls in your next answer.`;
}

/** The ids found so far in a log and how many of its entries were looked at: a log only grows. */
const seenIds = new WeakMap<readonly Entry[], { length: number; ids: Set<string> }>();

/** Every tool-call id the log already holds (a new set; only entries not looked at before are read). */
export function usedCallIds(entries: readonly Entry[]): Set<string> {
  let seen = seenIds.get(entries);
  // A shorter log than last time is another log in the same array: read it all again.
  if (seen === undefined || seen.length > entries.length) seen = { length: 0, ids: new Set() };
  for (let i = seen.length; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.kind === "assistant") entry.message.toolCalls?.forEach((call) => seen.ids.add(call.id));
  }
  seen.length = entries.length;
  seenIds.set(entries, seen);
  return new Set(seen.ids);
}

/**
 * The calls with ids unique in the conversation: an empty id, or one used before (in this answer or an
 * earlier one), gets a fresh random `tern_…` id (randomCallId). The renamed call and its result share it, so
 * pairs stay intact.
 */
export function withUniqueIds(calls: ToolCall[], used: Set<string>): ToolCall[] {
  return calls.map((call) => {
    if (call.id !== "" && !used.has(call.id)) {
      used.add(call.id);
      return call;
    }
    let id: string;
    do id = randomCallId("tern_"); while (used.has(id));
    used.add(id);
    return { ...call, id };
  });
}

/** What the model reads after an answer cut by the output limit while it was writing calls of `names`. */
export function cutCallsText(names: string): string {
  return `[tern] Your last answer was cut off by the output limit while you were writing a call to ${names}, ` +
    "so it was not run. Send it again with less in it: split a long file into several smaller writes or " +
    "edits, or shorten what you write before the call.";
}
