/** Reads the user's next prompt: line editing and history on a terminal, plain lines from a pipe. */
import process from "node:process";
import { createInterface } from "node:readline";
import type { LineReader } from "./reader_contract.ts";
import { terminalReader, type TerminalReaderOptions } from "./terminal_reader.ts";

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
