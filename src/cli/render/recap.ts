/** A resumed conversation in a few lines: where it left off (the last prompt, the last answer, folded). */
import type { Entry } from "../../agent/log/conversation.ts";

/** Lines of the last answer shown before the rest is folded. */
const ANSWER_LINES = 6;
/** Lines of the last prompt shown. */
const PROMPT_LINES = 3;

/**
 * The recap of `entries` (the live part of a conversation): the last prompt the user typed and the last
 * answer the model gave, each cut to a few lines with a note of what was folded; empty when there is none.
 * The texts come from the log: the screen's print makes them terminal-safe.
 */
export function recapLines(entries: readonly Entry[]): string[] {
  const prompt = entries.findLast((entry) => entry.kind === "user" && entry.from !== "tern");
  if (prompt?.kind !== "user") return [];
  const answer = entries.findLast((entry) =>
    entry.kind === "assistant" && entry.message.content.trim() !== ""
  );
  const lines = ["last prompt:", ...fold(prompt.text, PROMPT_LINES)];
  if (answer?.kind === "assistant") lines.push("last answer:", ...fold(answer.message.content, ANSWER_LINES));
  return lines;
}

/** `text` indented, at most `max` lines, then "… N more lines" when it had more. */
function fold(text: string, max: number): string[] {
  const lines = text.trim().split("\n");
  const shown = lines.slice(0, max).map((line) => `  ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`);
  const more = lines.length - shown.length;
  return more > 0 ? [...shown, `  … ${more} more line${more === 1 ? "" : "s"}`] : shown;
}
