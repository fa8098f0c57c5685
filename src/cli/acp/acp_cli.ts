/**
 * `tern acp`: an Agent Client Protocol agent on stdin/stdout (newline-delimited JSON-RPC, the official SDK).
 * stdout carries protocol messages only: anything else tern would print goes to stderr, the log.
 */
import type { CliArgs } from "../args.ts";
import { ternAgent } from "./agent.ts";
import { cappedLines, MAX_LINE_BYTES, tooLongError } from "./line_cap.ts";
import { npmPackage } from "../../npm.ts";

const sdk = await npmPackage("@agentclientprotocol/sdk");

/** Serves one editor until it closes stdin; resolves with the exit code (0). */
export async function runAcp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  // A stray console.log (ours or a library's) must never corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const allowed = Deno.realPathSync(Deno.cwd());
  // One writer for stdout: the SDK's messages and the errors for lines over the cap never interleave.
  const out = Deno.stdout.writable.getWriter();
  let writing = Promise.resolve();
  const write = (bytes: Uint8Array) => (writing = writing.then(() => out.write(bytes)).catch(() => {}));
  const output = new WritableStream<Uint8Array>({ write: (bytes) => write(bytes) });
  const encoder = new TextEncoder();
  const input = cappedLines(Deno.stdin.readable, (id) => {
    console.error(`tern acp: a message over ${MAX_LINE_BYTES / 1024 / 1024} MB was dropped`);
    write(encoder.encode(tooLongError(id)));
  });
  const stream = sdk.ndJsonStream(output, input);
  const connection = ternAgent({ args, allowed, atExit }).connect(stream);
  console.error(`tern acp: serving ${allowed} (protocol version ${sdk.PROTOCOL_VERSION})`);
  await connection.closed.catch((error) => console.error(`tern acp: connection closed: ${error}`));
  return 0;
}
