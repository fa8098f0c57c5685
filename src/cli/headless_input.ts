/**
 * The task of a headless run: `-p -` reads it from stdin; with `-p "task"`, input piped into tern (a file or
 * a pipe, never a terminal or a socket) is attached as context: `cat build.log | tern -p "why does this fail?"`.
 */
import { fstatSync } from "node:fs";

/** Piped input kept at most; past it, the end is kept (logs end with what matters). */
export const MAX_STDIN_CHARS = 256 * 1024;

/** Stdin as the task reader sees it; injectable for tests. */
export interface StdinLike {
  readable: ReadableStream<Uint8Array>;
  /** True for a regular file or a pipe (not a terminal, /dev/null or a socket). */
  isPiped(): boolean;
}

/** The process's stdin: piped when fd 0 is a FIFO or a file (fstat needs no read permission). */
export const processStdin: StdinLike = {
  get readable() {
    return Deno.stdin.readable;
  },
  isPiped: () => {
    try {
      const info = fstatSync(0);
      return info.isFIFO() || info.isFile();
    } catch {
      return false;
    }
  },
};

/** The task text for `prompt`, reading stdin as described above. */
export async function headlessTask(prompt: string, stdin: StdinLike = processStdin): Promise<string> {
  if (prompt === "-") return (await readAll(stdin)).text.trim();
  if (!stdin.isPiped()) return prompt;
  const { text, cut } = await readAll(stdin);
  if (text.trim() === "") return prompt;
  const note = cut ? ` (the last ${MAX_STDIN_CHARS} characters of a longer input)` : "";
  return `${prompt}\n\nInput piped to tern${note}:\n<stdin>\n${text.replace(/\n$/, "")}\n</stdin>`;
}

async function readAll(stdin: StdinLike): Promise<{ text: string; cut: boolean }> {
  let text = "";
  let cut = false;
  const decoder = new TextDecoder();
  for await (const chunk of stdin.readable) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > MAX_STDIN_CHARS * 2) {
      text = text.slice(-MAX_STDIN_CHARS);
      cut = true;
    }
  }
  text += decoder.decode();
  if (text.length > MAX_STDIN_CHARS) {
    text = text.slice(-MAX_STDIN_CHARS);
    cut = true;
  }
  return { text, cut };
}
