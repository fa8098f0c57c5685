/** A TCP server on 127.0.0.1 that answers nothing: it reads each connection's first line, keeps it, and hangs up. */
export interface RefusingServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`, for a registry URL or a proxy. */
  url: string;
  /** The first line of every connection made so far: an HTTP request line, or a proxy's CONNECT. */
  attempts: string[];
}

/** Starts one; everything that tries to reach it is counted and refused. */
export function refusingServer(): RefusingServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const attempts: string[] = [];
  const done = (async () => {
    for await (const connection of listener) {
      const buffer = new Uint8Array(512);
      const read = await connection.read(buffer).catch(() => null);
      attempts.push(new TextDecoder().decode(buffer.subarray(0, read ?? 0)).split("\r\n")[0]);
      connection.close();
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    [Symbol.asyncDispose]: async () => {
      listener.close();
      await done.catch(() => {});
    },
  };
}
