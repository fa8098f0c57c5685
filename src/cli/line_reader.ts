/** Reads the user's next prompt: line editing and history on a terminal, plain lines from a pipe. */
import process from "node:process";
import { createInterface, type Interface } from "node:readline";

/** Reads prompts; `read` resolves null when the user wants to leave (Ctrl-D, Ctrl-C twice, end of input). */
export interface LineReader {
  read(prompt: string): Promise<string | null>;
  close(): void;
}

/** A reader for the terminal when stdin is one, else for piped input. */
export function createLineReader(): LineReader {
  return process.stdin.isTTY ? terminalReader() : pipeReader();
}

/**
 * On a terminal, each prompt gets its own readline interface, closed before the task runs: the terminal is
 * back in cooked mode, so Ctrl-C during a task arrives as SIGINT and cancels it instead of being swallowed.
 */
function terminalReader(): LineReader {
  const history: string[] = [];
  let lastInterrupt = 0;
  return {
    read: (text) =>
      new Promise((resolve) => {
        // A newline inside a readline prompt breaks its Ctrl-C handling in Deno: print it apart.
        const prompt = text.slice(text.lastIndexOf("\n") + 1);
        process.stdout.write(text.slice(0, text.length - prompt.length));
        const rl = createInterface({
          input: process.stdin,
          output: process.stdout,
          terminal: true,
          history: [...history],
          historySize: 1000,
          removeHistoryDuplicates: true,
        });
        let settled = false;
        const finish = (value: string | null) => {
          if (settled) return;
          settled = true;
          rl.close();
          resolve(value);
        };
        rl.on("line", (line) => {
          if (line.trim() !== "" && history[0] !== line) history.unshift(line);
          finish(line);
        });
        rl.on("SIGINT", () => {
          if (rl.line.length > 0) return clearLine(rl, prompt);
          if (Date.now() - lastInterrupt < 2000) return finish(null);
          lastInterrupt = Date.now();
          process.stdout.write("\n(press Ctrl-C again to exit, or Ctrl-D)\n");
          rl.prompt();
        });
        rl.on("close", () => finish(null));
        rl.setPrompt(prompt);
        rl.prompt();
      }),
    close: () => {},
  };
}

function clearLine(rl: Interface, prompt: string): void {
  process.stdout.write("\n");
  // Drop what was typed, as shells do on Ctrl-C.
  (rl as unknown as { line: string; cursor: number }).line = "";
  (rl as unknown as { line: string; cursor: number }).cursor = 0;
  rl.setPrompt(prompt);
  rl.prompt();
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
