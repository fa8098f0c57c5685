/** `tern -r` in the REPL: which saved session to continue, asked on the terminal or read as a typed line. */
import type { SessionSummary } from "../agent/log/session_list.ts";
import { sessionLines } from "./commands/sessions.ts";

/**
 * On a terminal, the sessions as a menu (arrows and Enter, or a digit; Esc picks none); else the list on
 * stderr and one line read from stdin.
 */
export async function pickSession(sessions: SessionSummary[]): Promise<string | null> {
  const list = sessionLines(sessions);
  if (Deno.stdin.isTerminal()) return await pickOnTerminal(list);
  const { createLineReader } = await import("./input/line_reader.ts");
  console.error(list.join("\n"));
  const reader = createLineReader();
  try {
    return await reader.read("session number or id: ");
  } finally {
    reader.close();
  }
}

/** The menu: each line without its number; the answer is the number. */
async function pickOnTerminal(list: string[]): Promise<string | null> {
  const { chooseOne } = await import("./prompts/choice.ts");
  const choices = list.map((line, i) => ({ name: line.replace(/^\s*\d+\.\s/, ""), value: String(i + 1) }));
  const useColor = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
  return await chooseOne("Resume which session? (Esc: none)", choices, { useColor }) ?? null;
}
