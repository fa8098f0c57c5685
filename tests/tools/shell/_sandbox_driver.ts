/**
 * Runs tool calls through the registry under tern's exact permission flags: as a script it executes the calls
 * (JSON in argv[0]) in the current directory and prints the results; `runUnderTernFlags` spawns it.
 */
import { fileURLToPath } from "node:url";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { createRegistry, type ToolCallRequest } from "../../../src/tools/registry.ts";
import type { ToolResult } from "../../../src/tools/tool.ts";
import { ternFlags } from "../../support/cli.ts";

/** Runs `calls` in a child Deno under tern's flags with cwd = `root`; resolves with the tool results. */
export async function runUnderTernFlags(
  root: string,
  calls: [string, Record<string, unknown>][],
): Promise<ToolResult[]> {
  const args = [
    "run",
    ...await ternFlags(),
    "--config",
    fileURLToPath(new URL("../../deno.json", import.meta.url)),
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
  for (const call of calls) results.push(await registry.execute(call, ctx));
  console.log(JSON.stringify(results));
}
