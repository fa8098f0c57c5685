/**
 * The tool registry: specs for the model, validation of each call, and the one place where a tool's
 * throw becomes a structured result (an error the model reads) or a fatal error (the task ends).
 */

import { PackageError } from "../npm.ts";
import type { ToolSpec } from "../llm/types.ts";
import { limitResult, spillText } from "./spill.ts";
import { validateArgs } from "./_validate.ts";
import {
  type CallInspection,
  FatalToolError,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolErrorKind,
  type ToolResult,
} from "./tool.ts";

/** A tool call as it arrives from the model: a name and the raw JSON text of the arguments. */
export interface ToolCallRequest {
  name: string;
  arguments: string;
}

/** The set of tools offered to the model. */
export interface Registry {
  /**
   * Specs of the tools offered now, sorted by name (a stable order keeps the provider's prompt cache warm);
   * a tool whose `offered()` says false is left out until it says true.
   */
  specs(): ToolSpec[];
  /** Every tool, sorted by name. */
  tools(): Tool[];
  /** Parses and validates a call: the tool with its arguments, or the error result the model should read. */
  prepare(call: ToolCallRequest): PreparedCall | ToolResult;
}

/** A call whose tool exists and whose arguments passed the schema. */
export interface PreparedCall {
  tool: Tool;
  args: Record<string, unknown>;
}

/**
 * A call after its dry run: the facts approval and the UI read, and the tool's plan, which only the tool reads
 * (`runPrepared` hands it back to the tool's `run`).
 */
export interface InspectedCall extends PreparedCall {
  inspection: CallInspection;
  plan?: unknown;
}

/** The context a registry call needs: the tool's context minus `spill`, which is bound to the tool here. */
export type CallContext = Omit<ToolContext, "spill">;

function contextFor(tool: Tool, ctx: CallContext): ToolContext {
  return { ...ctx, spill: (text) => spillText(ctx.root, tool.name, text) };
}

/**
 * Inspects a prepared call: its facts and plan, or (when a dry run shows it cannot succeed) the error result
 * the model should read. Throws FatalToolError when the task cannot go on.
 */
export async function inspectPrepared(
  prepared: PreparedCall,
  ctx: CallContext,
): Promise<InspectedCall | ToolResult> {
  try {
    const { plan, ...inspection } = await prepared.tool.inspect(
      prepared.args,
      contextFor(prepared.tool, ctx),
    );
    return { ...prepared, inspection, ...(plan !== undefined && { plan }) };
  } catch (error) {
    return await failure(error, prepared.tool, ctx.root);
  }
}

/**
 * Runs a prepared call, with the plan of its inspection when it was inspected. A tool's failure becomes an
 * error result with its kind, without a stack trace; FatalToolError (and a bug in tern: TypeError,
 * RangeError, ReferenceError) is thrown on. Every result over SPILL_THRESHOLD characters is saved in full
 * under .tern/tool-outputs/ and the model gets its head and tail with the file's path (the one truncation
 * policy, applied here for every tool).
 */
export async function runPrepared(
  call: PreparedCall & { plan?: unknown },
  ctx: CallContext,
): Promise<ToolResult> {
  const { tool, args, plan } = call;
  let result: ToolResult;
  try {
    const returned = await tool.run(args, contextFor(tool, ctx), plan);
    result = typeof returned === "string" ? { content: returned } : returned;
  } catch (error) {
    result = await failure(error, tool, ctx.root);
  }
  const limited = await limitResult(ctx.root, tool.name, result.content);
  if (limited.savedAs === undefined) return { ...result, content: limited.content };
  return { ...result, content: limited.content, details: { ...result.details, spilledTo: limited.savedAs } };
}

/** Errors that only a bug in tern's own code throws: they end the task instead of misleading the model. */
const BUGS = [TypeError, RangeError, ReferenceError, SyntaxError];

/** The error result for a tool's throw, or the throw itself when the task cannot go on. */
async function failure(error: unknown, tool: Tool, root: string): Promise<ToolResult> {
  if (error instanceof FatalToolError) throw error;
  // A package that cannot be downloaded is nothing the model could fix: the task ends, in one line.
  if (error instanceof PackageError) throw new FatalToolError(error.message, { cause: error });
  if (!(await rootExists(root))) {
    throw new FatalToolError("the project root no longer exists (was it deleted or moved?)");
  }
  if (error instanceof ToolError) return errorResult(scrub(error.message, root), error.kind);
  if (BUGS.some((type) => error instanceof type)) {
    throw new FatalToolError(`a bug in tern: ${tool.name}: ${scrub((error as Error).message, root)}`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return errorResult(`${tool.name}: ${scrub(message, root)}`, kindOfSystemError(error));
}

async function rootExists(root: string): Promise<boolean> {
  try {
    return (await Deno.stat(root)).isDirectory;
  } catch {
    return false;
  }
}

/** The kind of an error the operating system raised inside a tool. */
function kindOfSystemError(error: unknown): ToolErrorKind {
  if (error instanceof Deno.errors.NotFound) return "not_found";
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return "permission";
  }
  if (error instanceof Deno.errors.TimedOut) return "timeout";
  return error instanceof Error && error.name in Deno.errors ? "io" : "internal";
}

/** An error result of `kind`. */
export function errorResult(content: string, kind: ToolErrorKind): ToolResult {
  return { content, error: { kind } };
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

/**
 * A tool's schema as the model reads it: without `additionalProperties: false` and numeric bounds, which the
 * validator enforces anyway (an unknown field is answered with the list of known ones, a number out of
 * range with its limit). Every request repeats the tools, so these would cost each one about 30 bytes per
 * object or bound.
 */
function schemaForModel(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaForModel);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === "additionalProperties" && value === false))
      .filter(([key, value]) => !((key === "minimum" || key === "maximum") && typeof value === "number"))
      .map(([key, value]) => [key, schemaForModel(value)]),
  );
}

/** Builds a registry; throws if two tools share a name (a programming error, caught at startup). */
export function createRegistry(tools: Tool[]): Registry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const sorted = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = sorted.map((tool) => tool.name);
  const specs = sorted.map(({ name, description, parameters, modelParameters, server }) => ({
    name,
    description,
    parameters: schemaForModel(modelParameters ?? parameters) as Record<string, unknown>,
    ...(server && { server }),
  }));
  return {
    specs: () => specs.filter((_, i) => sorted[i].offered?.() ?? true),
    tools: () => [...sorted],
    prepare: (call) => {
      const tool = byName.get(call.name);
      if (tool === undefined) {
        return errorResult(
          `unknown tool "${call.name}". Available tools: ${names.join(", ")}.`,
          "unknown_tool",
        );
      }
      const args = parseArguments(tool.name, call.arguments);
      if (typeof args === "string") return errorResult(args, "bad_arguments");
      const problems = validateArgs(tool.name, tool.parameters, args);
      if (problems.length > 0) return errorResult(problems.join("\n"), "bad_arguments");
      return { tool, args };
    },
  };
}
