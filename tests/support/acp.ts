/** `tern acp` as a subprocess under the binary's flags, and an ACP client stream to it (the official SDK). */
import * as acp from "@agentclientprotocol/sdk";
import { ternRunArgs } from "./cli.ts";

/** A running `tern acp`: the SDK stream to it, raw stdin/stdout for malformed input, and its stderr. */
export interface AcpProcess extends AsyncDisposable {
  child: Deno.ChildProcess;
  /** The client side of the protocol, for `acp.client(...).connectWith(stream, ...)`. */
  stream: acp.Stream;
  /** Everything tern wrote to stderr so far (its log). */
  stderr(): string;
}

/** Starts `tern acp ARGS` in `cwd` with only `env` (plus PATH/HOME). */
export async function startAcp(
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<AcpProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...await ternRunArgs(), "acp", ...args],
    cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/root", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
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
