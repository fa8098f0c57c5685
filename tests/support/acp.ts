/** `tern acp` as a subprocess under the binary's flags, and an ACP client stream to it (the official SDK). */
import * as acp from "@agentclientprotocol/sdk";
import { spawnTern } from "./cli.ts";

/** A running `tern acp`: the SDK stream to it, raw stdin/stdout for malformed input, and its stderr. */
export interface AcpProcess extends AsyncDisposable {
  child: Deno.ChildProcess;
  /** The client side of the protocol, for `acp.client(...).connectWith(stream, ...)`. */
  stream: acp.Stream;
  /** Everything tern wrote to stderr so far (its log). */
  stderr(): string;
}

/** Starts `tern acp ARGS` in `cwd` as `spawnTern` does, stdin left open for the protocol. */
export async function startAcp(
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<AcpProcess> {
  const child = await spawnTern({ cwd, args: ["acp", ...args], env, openStdin: true });
  let log = "";
  const reading = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (log += chunk) }),
  ).catch(() => {});
  const stream = acp.ndJsonStream(child.stdin, child.stdout);
  return {
    child,
    stream,
    stderr: () => log,
    async [Symbol.asyncDispose]() {
      try {
        child.kill();
      } catch {
        // already gone
      }
      await child.status;
      await reading;
    },
  };
}
