/** The tool registry: specs for the model, and execution that turns every failure into a result. */

import type { ToolSpec } from "../llm/types.ts";
import { limitResult } from "./spill.ts";
import { validateArgs } from "./_validate.ts";
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";

/** A tool call as it arrives from the model: a name and the raw JSON text of the arguments. */
export interface ToolCallRequest {
  name: string;
  arguments: string;
}

/** The set of tools offered to the model. */
export interface Registry {
  /** Specs of every tool, sorted by name (a stable order keeps the provider's prompt cache warm). */
  specs(): ToolSpec[];
  /** The tool called `name`, if there is one. */
  get(name: string): Tool | undefined;
  /** Parses and validates a call: the tool with its arguments, or the error result the model should read. */
  prepare(call: ToolCallRequest): PreparedCall | ToolResult;
  /** Runs one call; never throws: unknown tools, bad arguments and tool failures become error results. */
  execute(call: ToolCallRequest, ctx: ToolContext): Promise<ToolResult>;
}

/** A call whose tool exists and whose arguments passed the schema; run it with `runPrepared`. */
export interface PreparedCall {
  tool: Tool;
  args: Record<string, unknown>;
}

/**
 * Runs a prepared call; never throws: a tool's failure becomes an error result without a stack trace.
 * Every result over SPILL_THRESHOLD characters is saved in full under .tern/tool-outputs/ and the model
 * gets its head and tail with the file's path (the one truncation policy, applied here for every tool).
 */
export async function runPrepared(prepared: PreparedCall, ctx: ToolContext): Promise<ToolResult> {
  const result = await runTool(prepared, ctx);
  return { ...result, content: await limitResult(ctx.root, prepared.tool.name, result.content) };
}

async function runTool({ tool, args }: PreparedCall, ctx: ToolContext): Promise<ToolResult> {
  try {
    const result = await tool.run(args, ctx);
    return typeof result === "string" ? { content: result, isError: false } : result;
  } catch (error) {
    if (error instanceof ToolError) return failure(scrub(error.message, ctx.root));
    const message = error instanceof Error ? error.message : String(error);
    return failure(`${tool.name}: ${scrub(message, ctx.root)}`);
  }
}

function failure(content: string): ToolResult {
  return { content, isError: true };
}

/** Parses the arguments text into an object, or says what is wrong with it. */
function parseArguments(name: string, text: string): Record<string, unknown> | string {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `${name}: the arguments are not valid JSON (${reason}). Send a JSON object, e.g. {"path": "src/main.ts"}.`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = Array.isArray(value) ? "an array" : JSON.stringify(value);
    return `${name}: the arguments must be a JSON object of named fields, got ${got}.`;
  }
  // Many models send null for an optional field they mean to leave out; treat it as left out.
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

/** Keeps absolute paths of the machine out of messages: the root shows as ".". */
function scrub(message: string, root: string): string {
  return root.length > 1 ? message.replaceAll(`${root}/`, "").replaceAll(root, ".") : message;
}

/** Builds a registry; throws if two tools share a name (a programming error, caught at startup). */
export function createRegistry(tools: Tool[]): Registry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const names = [...byName.keys()].sort();
  const prepare = (call: ToolCallRequest): PreparedCall | ToolResult => {
    const tool = byName.get(call.name);
    if (tool === undefined) {
      return failure(`unknown tool "${call.name}". Available tools: ${names.join(", ")}.`);
    }
    const args = parseArguments(tool.name, call.arguments);
    if (typeof args === "string") return failure(args);
    const problems = validateArgs(tool.name, tool.parameters, args);
    if (problems.length > 0) return failure(problems.join("\n"));
    return { tool, args };
  };
  return {
    specs: () =>
      names.map((name) => {
        const { description, parameters } = byName.get(name)!;
        return { name, description, parameters };
      }),
    get: (name) => byName.get(name),
    prepare,
    execute: async (call, ctx) => {
      const prepared = prepare(call);
      return "tool" in prepared ? await runPrepared(prepared, ctx) : prepared;
    },
  };
}
