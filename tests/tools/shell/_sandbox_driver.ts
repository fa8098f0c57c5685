/**
 * Runs tool calls through the registry under tern's exact permission flags: as a script it executes the calls
 * (JSON in argv[0]) in the current directory and prints the results; `runUnderTernFlags` spawns it.
 */
import { fileURLToPath } from "node:url";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { createRegistry, runPrepared, type ToolCallRequest } from "../../../src/tools/registry.ts";
import type { Outcome } from "../_helpers.ts";
import { ternFlags } from "../../support/cli.ts";

/** Runs `calls` in a child Deno under tern's flags with cwd = `root`; resolves with the tool results. */
export async function runUnderTernFlags(
  root: string,
  calls: [string, Record<string, unknown>][],
): Promise<Outcome[]> {
  const args = [
    "run",
    ...await ternFlags(),
    "--config",
    fileURLToPath(new URL("../../../deno.json", import.meta.url)),
    fileURLToPath(import.meta.url),
    JSON.stringify(calls.map(([name, args]) => ({ name, arguments: JSON.stringify(args) }))),
  ];
  const { stdout, stderr, success } = await new Deno.Command(Deno.execPath(), { args, cwd: root }).output();
  if (!success) throw new Error(new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

if (import.meta.main) {
  const calls: ToolCallRequest[] = JSON.parse(Deno.args[0]);
  const registry = createRegistry(builtinTools());
  const ctx = { root: Deno.realPathSync("."), signal: new AbortController().signal };
  const results = [];
  for (const call of calls) {
    const prepared = registry.prepare(call);
    const result = "tool" in prepared ? await runPrepared(prepared, ctx) : prepared;
    results.push({ content: result.content, isError: result.error !== undefined });
  }
  console.log(JSON.stringify(results));
}
