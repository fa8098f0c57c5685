/** Reads the user's next prompt: line editing and history on a terminal, plain lines from a pipe. */
import process from "node:process";
import { createInterface } from "node:readline";
import { terminalReader, type TerminalReaderOptions } from "./terminal_reader.ts";

/** What the REPL can hook into while a prompt is read. */
export interface ReadHooks {
  /** Shift+Tab: cycle something (the approval mode) and return the prompt to show from now on. */
  cycle?: () => string;
  /** Ctrl-C on an empty line ends the read at once (a sub-prompt), instead of asking for a second one. */
  interruptEnds?: boolean;
}

/** Reads prompts; `read` resolves null when the user wants to leave (Ctrl-D, Ctrl-C twice, end of input). */
export interface LineReader {
  read(prompt: string, hooks?: ReadHooks): Promise<string | null>;
  close(): void;
}

/** A reader for the terminal when stdin is one (see terminal_reader.ts), else for piped input. */
export function createLineReader(terminal: TerminalReaderOptions = {}): LineReader {
  return process.stdin.isTTY ? terminalReader(terminal) : pipeReader();
}

/** Piped input: one interface for the whole run so no buffered line is lost between tasks. */
function pipeReader(): LineReader {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    read: async (prompt) => {
      process.stdout.write(prompt);
      const next = await lines.next();
      if (next.done) return null;
      process.stdout.write(next.value + "\n");
      return next.value;
    },
    close: () => rl.close(),
  };
}
