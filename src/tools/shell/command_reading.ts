/**
 * What reading a shell line yields (the commands it runs, or null where the words cannot be known) and how a
 * form reads deeper: shared by executed_commands.ts and the forms it hands commands to (_command_forms.ts).
 */
import type { Word } from "./shell_words.ts";

/** One command that runs: its words, and whether more arguments join them at run time (`xargs rm`). */
export interface Executed {
  words: string[];
  open: boolean;
}

/** A command that runs, or null: one that may run, whose words cannot be known before the shell runs. */
export type Found = Executed | null;

/** What a command reads on stdin: nothing, a file, a known text, or something unknown (a pipe). */
export type Stdin = "none" | "file" | "unknown" | { text: string };

/** How a form reads what it runs: a script (one level deeper), or a command given as words. */
export interface Reader {
  stdin: Stdin;
  script(text: string, stdin?: Stdin): Found[];
  words(words: Word[]): Found[];
}
