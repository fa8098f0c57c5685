/**
 * The task of a headless run: `-p -` reads it from stdin; with `-p "task"`, input piped into tern is
 * attached as context: `cat build.log | tern -p "why does this fail?"`. A stdin that stays open and silent
 * (a harness that never closes it) is given up after STDIN_WAIT_MS, with a note, instead of hanging.
 */
import { after, type Timer } from "../../timer.ts";

/** Piped input kept at most; past it, the end is kept (logs end with what matters). */
export const MAX_STDIN_CHARS = 256 * 1024;

/** How long `-p TASK` waits for the first byte of a stdin that is neither a terminal nor closed. */
export const STDIN_WAIT_MS = 3000;

/** Stdin as the task reader sees it; injectable for tests. */
export interface StdinLike {
  readable: ReadableStream<Uint8Array>;
  isTerminal(): boolean;
}

/** What headlessTask found: the task, and a note for stderr when stdin was given up on. */
export interface HeadlessTask {
  task: string;
  note?: string;
}

/** The task text for `prompt`, reading stdin as described above. */
export async function headlessTask(
  prompt: string,
  stdin: StdinLike = Deno.stdin,
  waitMs = STDIN_WAIT_MS,
): Promise<HeadlessTask> {
  if (prompt === "-") return { task: (await readAll(stdin, Infinity)).text.trim() };
  if (stdin.isTerminal()) return { task: prompt };
  const { text, cut, gaveUp } = await readAll(stdin, waitMs);
  if (gaveUp) {
    return { task: prompt, note: `no input arrived on stdin within ${waitMs / 1000} s; running without it` };
  }
  if (text.trim() === "") return { task: prompt };
  const note = cut ? ` (the last ${MAX_STDIN_CHARS} characters of a longer input)` : "";
  return { task: `${prompt}\n\nInput piped to tern${note}:\n<stdin>\n${text.replace(/\n$/, "")}\n</stdin>` };
}

/** Reads to the end; gives up when the first chunk (or the end) does not come within `waitMs`. */
async function readAll(
  stdin: StdinLike,
  waitMs: number,
): Promise<{ text: string; cut: boolean; gaveUp: boolean }> {
  const reader = stdin.readable.getReader();
  let text = "";
  let cut = false;
  const decoder = new TextDecoder();
  let timer: Timer | undefined;
  try {
    const timeout = new Promise<"timeout">((resolve) => {
      if (Number.isFinite(waitMs)) timer = after(waitMs, () => resolve("timeout"));
    });
    const first = await Promise.race([reader.read(), timeout]);
    timer?.clear();
    if (first === "timeout") {
      reader.cancel().catch(() => {});
      return { text: "", cut: false, gaveUp: true };
    }
    for (let next = first; !next.done; next = await reader.read()) {
      text += decoder.decode(next.value, { stream: true });
      if (text.length > MAX_STDIN_CHARS * 2) {
        text = text.slice(-MAX_STDIN_CHARS);
        cut = true;
      }
    }
  } finally {
    timer?.clear();
    reader.releaseLock();
  }
  text += decoder.decode();
  if (text.length > MAX_STDIN_CHARS) {
    text = text.slice(-MAX_STDIN_CHARS);
    cut = true;
  }
  return { text, cut, gaveUp: false };
}
