/**
 * Reading a child's pipe without a fresh 64 KB buffer per read. Deno's default reader allocates one for
 * every read, however few bytes came (a command's `echo 1` cost about 150 KB over its two pipes): external
 * memory V8 collects only once tens of MB have piled up, which showed as peak RSS over a 1,000-turn session.
 * A BYOB reader reads into a buffer kept here and handed back for the next read, and the next pipe.
 */

const SIZE = 64 * 1024;
/** Buffers kept between pipes: a command reads two at once, a background process or two more. */
const MAX_SPARE = 4;
const spare: ArrayBuffer[] = [];

/** A pipe's reader: `read` resolves with the next chunk (a view valid until the next read) or null at its end. */
export interface PipeReader {
  read(): Promise<Uint8Array | null>;
  cancel(): Promise<void>;
}

/** A reader of `stream` (a byte stream, as a child's stdout is) into a reused buffer. */
export function pipeReader(stream: ReadableStream<Uint8Array>): PipeReader {
  const reader = stream.getReader({ mode: "byob" });
  let buffer: ArrayBuffer | undefined = spare.pop() ?? new ArrayBuffer(SIZE);
  const release = () => {
    // A buffer still inside a read that never came back (a cancel) is detached: it is not kept.
    if (buffer && !buffer.detached && spare.length < MAX_SPARE) spare.push(buffer);
    buffer = undefined;
  };
  return {
    async read() {
      if (buffer === undefined) return null;
      const { value, done } = await reader.read(new Uint8Array(buffer));
      if (value) buffer = value.buffer as ArrayBuffer;
      if (done || value === undefined) {
        release();
        return null;
      }
      return value;
    },
    cancel: () => reader.cancel(),
  };
}
