/** Where rendered text goes: a terminal or a pipe, written whole. */

/** Where rendered text goes; `isTerminal` decides colours and the spinner. */
export interface Sink {
  write(text: string): void;
  isTerminal: boolean;
}

/** A sink over a Deno stream (stdout or stderr). */
export function streamSink(stream: typeof Deno.stdout | typeof Deno.stderr): Sink {
  const encoder = new TextEncoder();
  return {
    write: (text) => {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
    },
    isTerminal: stream.isTerminal(),
  };
}
