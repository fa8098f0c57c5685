/**
 * terminalReader() fed terminal bytes the way a terminal delivers them: a read of stdin at a time, cut
 * anywhere. The terminal is a stand-in object with stdin's few methods the reader uses (raw mode, data
 * events); the screen writes are collected and ignored.
 */
import process from "node:process";
import { assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { terminalReader } from "../../../src/cli/input/terminal_reader.ts";

/** A stand-in for stdin on a terminal: `send` delivers one read's bytes to the reader's data listener. */
class FakeTerminal {
  readonly #listeners = new Set<(chunk: Uint8Array) => void>();
  raw = false;
  setRawMode(on: boolean): this {
    this.raw = on;
    return this;
  }
  on(_event: "data", listener: (chunk: Uint8Array) => void): this {
    this.#listeners.add(listener);
    return this;
  }
  off(_event: "data", listener: (chunk: Uint8Array) => void): this {
    this.#listeners.delete(listener);
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  /** Delivers `bytes` in reads of `size` bytes, as a terminal's reads cut a large write. */
  send(bytes: Uint8Array, size = bytes.length): void {
    for (let at = 0; at < bytes.length; at += size) {
      for (const listener of [...this.#listeners]) listener(bytes.slice(at, at + size));
    }
  }
}

function reader(terminal: FakeTerminal) {
  const input = terminal as unknown as typeof process.stdin;
  return terminalReader({ input, write: () => {}, columns: () => 80 });
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const paste = (text: string) => utf8(`\x1b[200~${text}\x1b[201~`);

/** Resolves with the read's value, or "(still reading)" when it has not ended once the input is handled. */
async function settled(read: Promise<string | null>): Promise<string | null> {
  // The reader handles keys on a promise chain: a few turns of the event loop let it run to the end.
  const still = new Promise<string>((resolve) => setTimeout(() => resolve("(still reading)"), 100));
  return await Promise.race([read, still]);
}

Deno.test("terminalReader() takes a 300-line paste cut into many reads as one paste, and runs no line of it", async () => {
  const terminal = new FakeTerminal();
  const lines = Array.from({ length: 300 }, (_, i) => i === 150 ? "/exit" : `pasted line ${i + 1} — é`);
  const text = lines.join("\n") + "\n";
  const prompts = reader(terminal);
  const first = prompts.read("› ");
  // Reads of 997 bytes cut the markers, the lines and the two-byte characters at every possible place.
  terminal.send(paste(text), 997);
  assertStrictEquals(await settled(first), "(still reading)");
  terminal.send(utf8("\r"));
  assertStrictEquals(await first, text);
  // Nothing of the paste is left over for the next prompt.
  const second = prompts.read("› ");
  assertStrictEquals(await settled(second), "(still reading)");
  terminal.send(utf8("next\r"));
  assertStrictEquals(await second, "next");
  assertStrictEquals(terminal.raw, false);
});

Deno.test("terminalReader() keeps a paste whole when its line breaks are CRs, one byte per read", async () => {
  const terminal = new FakeTerminal();
  const prompts = reader(terminal);
  const read = prompts.read("› ");
  terminal.send(utf8("say: "));
  terminal.send(paste("a\rb\r/exit\rc"), 1);
  terminal.send(utf8(" done\r"));
  assertStrictEquals(await read, "say: a\nb\n/exit\nc done");
});

Deno.test("terminalReader() gives what was typed after the submitting Enter to the next reads, in order", async () => {
  const terminal = new FakeTerminal();
  const prompts = reader(terminal);
  const first = prompts.read("› ");
  terminal.send(utf8("one\rtwo\r"));
  terminal.send(paste("three\nfour"));
  terminal.send(utf8("\r"));
  assertEquals([await first, await prompts.read("› "), await prompts.read("› ")], [
    "one",
    "two",
    "three\nfour",
  ]);
});
