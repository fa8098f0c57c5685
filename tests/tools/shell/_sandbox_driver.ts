/**
 * Runs tool calls through the registry under tern's exact permission flags: as a script it executes the calls
 * (JSON on stdin) in the current directory and prints the results; `runUnderTernFlags` spawns it.
 */
import { fileURLToPath } from "node:url";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { createRegistry, runPrepared, type ToolCallRequest } from "../../../src/tools/registry.ts";
import type { Outcome } from "../_helpers.ts";
import { ternFlags } from "../../support/cli.ts";
import { closeFileWall, openFileWall } from "../../../src/fs/file_wall.ts";

/** Runs `calls` in a child Deno under tern's flags with cwd = `root`; resolves with the tool results. */
export async function runUnderTernFlags(
  root: string,
  calls: [string, Record<string, unknown>][],
  /**
   * The child's environment (added to the test's own), its sandbox mode (default auto), and whether the file
   * tools use the long-lived file helper as the CLI does (default true) or their one-off scripts.
   */
  options: { env?: Record<string, string>; sandbox?: "auto" | "required" | "off"; fileHelper?: boolean } = {},
): Promise<Outcome[]> {
  const args = [
    "run",
    ...await ternFlags(),
    "--config",
    fileURLToPath(new URL("../../../deno.json", import.meta.url)),
    fileURLToPath(import.meta.url),
  ];
  const env = {
    ...options.env,
    TERN_TEST_SANDBOX: options.sandbox ?? "auto",
    TERN_TEST_FILE_HELPER: options.fileHelper === false ? "off" : "on",
  };
  // The calls go in on stdin: thousands of them are over the kernel's limit for one argument.
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const input = JSON.stringify(calls.map(([name, args]) => ({ name, arguments: JSON.stringify(args) })));
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const { stdout, stderr, success } = await child.output();
  if (!success) throw new Error(new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

if (import.meta.main) {
  const calls: ToolCallRequest[] = JSON.parse(await new Response(Deno.stdin.readable).text());
  const modes = ["auto", "required", "off"] as const;
  const sandbox = modes.find((mode) => mode === Deno.env.get("TERN_TEST_SANDBOX")) ?? "auto";
  const registry = createRegistry(builtinTools({ shell: { sandbox, secrets: [] } }));
  const ctx = { root: Deno.realPathSync("."), signal: new AbortController().signal };
  if (Deno.env.get("TERN_TEST_FILE_HELPER") === "on") openFileWall(() => {});
  const results = [];
  // `{TERN_PID}` in a call's arguments stands for this process's pid (tern's own, as a command sees it).
  for (const call of calls) {
    const request = { ...call, arguments: call.arguments.replaceAll("{TERN_PID}", String(Deno.pid)) };
    const prepared = registry.prepare(request);
    const result = "tool" in prepared ? await runPrepared(prepared, ctx) : prepared;
    results.push({ content: result.content, isError: result.error !== undefined });
  }
  await closeFileWall();
  console.log(JSON.stringify(results));
}
