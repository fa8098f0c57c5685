/**
 * `@path` in a prompt attaches the file: read through the path guard (inside the root, no .env, no
 * special files, UTF-8 only) and appended to the task, so the model has it without a read_file call.
 */
import { readTextFile } from "../../fs/path_guard.ts";

/** Files larger than this are not attached (the model can page them with read_file). */
export const MAX_ATTACHMENT_BYTES = 256 * 1024;

/** The task to send and one line per mention for the screen ("attached src/a.ts (120 lines)"). */
export interface Attached {
  task: string;
  notes: string[];
}

/** Reads every `@path` mention of `text` under `root`; a mention that is not a readable file stays text. */
export async function attachMentions(text: string, root: string): Promise<Attached> {
  const mentions = [...new Set([...text.matchAll(/(?:^|\s)@([^\s@]+)/g)].map((match) => match[1]))];
  const blocks: string[] = [];
  const notes: string[] = [];
  for (const mention of mentions) {
    const path = mention.replace(/[.,;:!?)]+$/, ""); // "see @src/a.ts." ends a sentence
    try {
      const file = await readTextFile(root, path);
      if (file.bytes > MAX_ATTACHMENT_BYTES) {
        notes.push(`not attached ${file.rel}: ${file.bytes} bytes is over 256 KB (the model can read it)`);
        continue;
      }
      const lines = file.text === "" ? 0 : file.text.split("\n").length - (file.text.endsWith("\n") ? 1 : 0);
      blocks.push(
        `<attached_file path="${file.rel}">\n${file.text}${
          file.text.endsWith("\n") ? "" : "\n"
        }</attached_file>`,
      );
      notes.push(`attached ${file.rel} (${lines} line${lines === 1 ? "" : "s"})`);
    } catch (error) {
      // Not a file (a directory, a mention of a person, a refused path): say why when it looked like a path.
      if (path.includes("/") || path.includes(".")) {
        notes.push(`not attached @${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  const task = blocks.length === 0 ? text : `${text}\n\n${blocks.join("\n\n")}`;
  return { task, notes };
}
