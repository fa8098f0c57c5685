/**
 * JSON-RPC 2.0 over the Language Server Protocol's framing (`Content-Length: N\r\n\r\n` then N bytes of
 * JSON), on a pair of byte streams. Small on purpose: requests with ids, notifications, and the few requests
 * a server sends the client answered by a handler. A server is a program of the project's world: a frame
 * past MAX_FRAME_BYTES or a header that does not parse ends the connection instead of growing a buffer.
 */

/** Largest frame a server may send (a whole project's diagnostics fit many times over). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** What the connection does with what the server sends on its own. */
export interface RpcHandlers {
  /** A notification (e.g. `textDocument/publishDiagnostics`). */
  onNotification(method: string, params: unknown): void;
  /** A request of the server's; its return value is the result sent back. */
  onRequest(method: string, params: unknown): unknown;
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/** One connection to a server: `request` and `notify` out, handlers for what comes in. */
export class RpcConnection {
  readonly #pending = new Map<number, Pending>();
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();
  #nextId = 1;
  #closedWith?: Error;
  /** Resolves when the server's output ended (or broke the framing). */
  readonly done: Promise<void>;

  constructor(
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array>,
    readonly handlers: RpcHandlers,
  ) {
    this.#writer = output.getWriter();
    this.done = this.#read(input).catch((error) => this.#close(error)).then(() =>
      this.#close(new Error("the server closed its output"))
    );
  }

  /** Sends a request; resolves with its result, rejects with the server's error or when the connection ends. */
  request(method: string, params: unknown): Promise<unknown> {
    if (this.#closedWith) return Promise.reject(this.#closedWith);
    const id = this.#nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#send({ jsonrpc: "2.0", id, method, params });
    return answer;
  }

  /** Sends a notification; a write to a server that is gone is dropped (its end is reported by `done`). */
  notify(method: string, params: unknown): void {
    if (!this.#closedWith) this.#send({ jsonrpc: "2.0", method, params });
  }

  #send(message: unknown): void {
    const body = this.#encoder.encode(JSON.stringify(message));
    const head = this.#encoder.encode(`Content-Length: ${body.length}\r\n\r\n`);
    const frame = new Uint8Array(head.length + body.length);
    frame.set(head);
    frame.set(body, head.length);
    this.#writer.write(frame).catch((error) => this.#close(error));
  }

  async #read(input: ReadableStream<Uint8Array>): Promise<void> {
    let buffer: Uint8Array = new Uint8Array(0);
    for await (const chunk of input) {
      buffer = concat(buffer, chunk);
      while (true) {
        const frame = takeFrame(buffer);
        if (frame === undefined) break;
        buffer = frame.rest;
        this.#dispatch(frame.body);
      }
      if (buffer.length > MAX_FRAME_BYTES + 1024) throw new Error("the server sent a frame over 16 MB");
    }
  }

  #dispatch(body: string): void {
    let message: {
      id?: number | string;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: unknown;
    };
    try {
      message = JSON.parse(body);
    } catch {
      return; // one garbled message is dropped; the framing is still in step
    }
    if (typeof message !== "object" || message === null) return;
    if (typeof message.method === "string") {
      if (message.id === undefined) return this.handlers.onNotification(message.method, message.params);
      return this.#answer(message.id, message.method, message.params);
    }
    const pending = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
    if (pending === undefined) return;
    this.#pending.delete(message.id as number);
    if (message.error !== undefined) {
      const text = (message.error as { message?: unknown })?.message;
      pending.reject(
        new Error(typeof text === "string" ? text.slice(0, 300) : "the server answered an error"),
      );
    } else pending.resolve(message.result);
  }

  #answer(id: number | string, method: string, params: unknown): void {
    let result: unknown = null;
    try {
      result = this.handlers.onRequest(method, params) ?? null;
    } catch {
      // A handler's bug must not leave the server waiting: it gets null.
    }
    this.#send({ jsonrpc: "2.0", id, result });
  }

  #close(error: Error): void {
    if (this.#closedWith) return;
    this.#closedWith = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#writer.close().catch(() => {});
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

const HEADER_END = [13, 10, 13, 10];

/** The first whole frame in `buffer` and what follows it; undefined until one is complete. Throws on a bad header. */
export function takeFrame(buffer: Uint8Array): { body: string; rest: Uint8Array } | undefined {
  const end = indexOf(buffer, HEADER_END);
  if (end < 0) {
    if (buffer.length > 4096) throw new Error("the server sent a header over 4 KB");
    return undefined;
  }
  const header = new TextDecoder().decode(buffer.subarray(0, end));
  const match = /^content-length:\s*(\d+)\s*$/im.exec(header);
  if (match === null) throw new Error("the server sent a frame without Content-Length");
  const length = Number(match[1]);
  if (length > MAX_FRAME_BYTES) throw new Error("the server sent a frame over 16 MB");
  const start = end + HEADER_END.length;
  if (buffer.length < start + length) return undefined;
  const body = new TextDecoder().decode(buffer.subarray(start, start + length));
  return { body, rest: buffer.subarray(start + length) };
}

function indexOf(buffer: Uint8Array, needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= buffer.length; i++) {
    for (let j = 0; j < needle.length; j++) if (buffer[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
