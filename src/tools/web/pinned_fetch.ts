/**
 * A fetch that connects only to addresses the caller already checked. web_fetch resolves a host once and
 * checks every answer; letting fetch resolve the name again would let a second, different answer (DNS
 * rebinding) reach 127.0.0.1 or a private network.
 *
 * How: Deno 2.9's fetch has no resolver or connect-address option, and its `tcp` proxy transport sends
 * plain HTTP even for https URLs. Its SOCKS5 transport does what is needed for both schemes: it asks the
 * proxy for the host *name*, then speaks TLS itself through the tunnel, with SNI and the certificate check
 * against that name (and the Host header stays the name). So each request gets a small SOCKS5 server on
 * 127.0.0.1 that ignores the name it is asked for and dials only the checked addresses. The rest is plain
 * fetch: manual redirects, abort signals, HTTP/2, content decoding.
 */

/** Opens a TCP connection to a checked address. */
export type Dial = (address: string, port: number, signal: AbortSignal) => Promise<Deno.Conn>;

/** Settings of the pinned connection; both are for tests. */
export interface PinOptions {
  /** Extra trusted root certificates (PEM), for a local https server. */
  caCerts?: string[];
  /** How a checked address is dialled (default Deno.connect), so a test's "public" address stays local. */
  dial?: Dial;
}

/** A response that came through the pinned connection; disposing it closes that connection. */
export interface PinnedResponse extends AsyncDisposable {
  response: Response;
}

/**
 * Fetches `url` over a connection to one of `addresses` (tried in order, on the URL's port), never to
 * whatever the host name resolves to now.
 */
export async function pinnedFetch(
  url: URL,
  addresses: string[],
  init: RequestInit & { signal: AbortSignal },
  options: PinOptions = {},
): Promise<PinnedResponse> {
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const dial = options.dial ?? ((hostname, port, signal) => Deno.connect({ hostname, port, signal }));
  const tunnel = socksTunnel(addresses, port, dial, init.signal);
  const client = createClient({
    proxy: { url: `socks5://127.0.0.1:${tunnel.port}` },
    caCerts: options.caCerts ?? [],
  });
  const dispose = async () => {
    client.close();
    await tunnel.close();
  };
  try {
    const response = await fetch(url, { ...init, client });
    if (!tunnel.used) {
      // Only if Deno ever stops routing this client through its proxy: the answer came from elsewhere.
      await response.body?.cancel();
      throw new Error("the connection did not go to the checked address");
    }
    return { response, [Symbol.asyncDispose]: dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * Deno applies NO_PROXY even to a client's own proxy, so a host listed there (or `NO_PROXY=*`) would be
 * reached directly, resolved afresh. The client reads the variables when it is made, synchronously, so
 * hiding them for that one call hides them from nothing else.
 */
function createClient(options: Deno.CreateHttpClientOptions): Deno.HttpClient {
  const hidden = ["NO_PROXY", "no_proxy"].flatMap((name) => {
    const value = Deno.env.get(name);
    return value === undefined ? [] : [[name, value] as const];
  });
  for (const [name] of hidden) Deno.env.delete(name);
  try {
    return Deno.createHttpClient(options);
  } finally {
    for (const [name, value] of hidden) Deno.env.set(name, value);
  }
}

/** A SOCKS5 server (no auth, CONNECT only) on 127.0.0.1 whose every tunnel leads to `addresses`:`port`. */
function socksTunnel(addresses: string[], port: number, dial: Dial, signal: AbortSignal) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const stop = new AbortController();
  const dialSignal = AbortSignal.any([signal, stop.signal]);
  const open = new Set<Deno.Conn>();
  const served: Promise<void>[] = [];
  let used = false;
  const accepting = (async () => {
    for await (const conn of listener) {
      used = true;
      open.add(conn);
      served.push(
        serve(conn, () => dialFirst(addresses, port, dial, dialSignal), open).finally(() =>
          open.delete(conn)
        ),
      );
    }
  })().catch(() => {}); // the listener was closed
  return {
    port: listener.addr.port,
    get used() {
      return used;
    },
    async close() {
      stop.abort();
      listener.close();
      for (const conn of open) closeQuietly(conn);
      await accepting;
      await Promise.allSettled(served);
    },
  };
}

/** One SOCKS5 exchange (RFC 1928), then bytes both ways until either side closes. */
async function serve(conn: Deno.Conn, connect: () => Promise<Deno.Conn | undefined>, open: Set<Deno.Conn>) {
  let upstream: Deno.Conn | undefined;
  try {
    const [, methods] = await readExactly(conn, 2);
    await readExactly(conn, methods);
    await conn.write(new Uint8Array([5, 0])); // no authentication
    const [, command, , addressType] = await readExactly(conn, 4);
    const nameLength = addressType === 1 ? 4 : addressType === 4 ? 16 : (await readExactly(conn, 1))[0];
    await readExactly(conn, nameLength + 2); // the name and port asked for: ignored, the pin decides
    upstream = command === 1 ? await connect() : undefined; // CONNECT only
    if (upstream === undefined) {
      await conn.write(reply(command === 1 ? 5 : 7)); // connection refused, or command not supported
      return;
    }
    open.add(upstream);
    await conn.write(reply(0));
    await Promise.allSettled([
      conn.readable.pipeTo(upstream.writable),
      upstream.readable.pipeTo(conn.writable),
    ]);
  } catch {
    // a broken exchange ends this tunnel; fetch reports the failure
  } finally {
    closeQuietly(conn);
    if (upstream) {
      open.delete(upstream);
      closeQuietly(upstream);
    }
  }
}

async function dialFirst(addresses: string[], port: number, dial: Dial, signal: AbortSignal) {
  for (const address of addresses) {
    if (signal.aborted) return undefined;
    try {
      return await dial(address, port, signal);
    } catch {
      // try the next checked address
    }
  }
  return undefined;
}

/** A SOCKS5 reply with status `code` and an empty IPv4 bound address. */
const reply = (code: number) => new Uint8Array([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);

/** Reads exactly `n` bytes, never more (what follows the handshake belongs to the tunnel). */
async function readExactly(conn: Deno.Conn, n: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(n);
  for (let offset = 0; offset < n;) {
    const read = await conn.read(bytes.subarray(offset));
    if (read === null) throw new Error("SOCKS client closed the connection");
    offset += read;
  }
  return bytes;
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
