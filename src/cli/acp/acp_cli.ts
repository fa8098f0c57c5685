/**
 * `tern acp`: an Agent Client Protocol agent on stdin/stdout (newline-delimited JSON-RPC, the official SDK).
 * stdout carries protocol messages only: anything else tern would print goes to stderr, the log.
 */
import type { CliArgs } from "../args.ts";
import { ternAgent } from "./agent.ts";
import { npmPackage } from "../../npm.ts";
import { sandboxAcrossProcesses } from "../sandbox_start.ts";

const sdk = await npmPackage("@agentclientprotocol/sdk");

/** Serves one editor until it closes stdin; resolves with the exit code (0). */
export async function runAcp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  // A stray console.log (ours or a library's) must never corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const allowed = Deno.realPathSync(Deno.cwd());
  await sandboxAcrossProcesses(allowed);
  const stream = sdk.ndJsonStream(Deno.stdout.writable, Deno.stdin.readable);
  const connection = ternAgent({ args, allowed, atExit }).connect(stream);
  console.error(`tern acp: serving ${allowed} (protocol version ${sdk.PROTOCOL_VERSION})`);
  await connection.closed.catch((error) => console.error(`tern acp: connection closed: ${error}`));
  return 0;
}
