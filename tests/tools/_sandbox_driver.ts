/** Runs tool calls (JSON in argv[0]) through the registry in the current directory; prints the results as JSON. */

import { builtinTools } from "../../src/tools/all.ts";
import { createRegistry, type ToolCallRequest } from "../../src/tools/registry.ts";

const calls: ToolCallRequest[] = JSON.parse(Deno.args[0]);
const registry = createRegistry(builtinTools());
const ctx = { root: Deno.realPathSync("."), signal: new AbortController().signal };
const results = [];
for (const call of calls) results.push(await registry.execute(call, ctx));
console.log(JSON.stringify(results));
