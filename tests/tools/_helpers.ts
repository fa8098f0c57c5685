/** Test helpers for the tools: building tools as the loop does, calling them as the registry does. */

import type { SandboxMode } from "../../src/config/settings.ts";
import { createEditFileTool } from "../../src/tools/edit_file.ts";
import { createExecuteCommandTool } from "../../src/tools/execute_command.ts";
import { createReadFileTool } from "../../src/tools/read_file.ts";
import { spillText } from "../../src/tools/spill.ts";
import type { SandboxDetector } from "../../src/tools/shell/sandbox.ts";
import {
  type FileTracker,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolResult,
} from "../../src/tools/tool.ts";
import { createWriteFileTool } from "../../src/tools/write_file.ts";

/**
 * A tool context as the tests write it: what every tool gets, plus the conversation's settings that the
 * loop gives the tool factories (the file tracker, the shell's sandbox mode and secrets).
 */
export interface TestContext extends ToolContext {
  files?: FileTracker;
  shell?: { sandbox: SandboxMode; secrets: string[] };
}

/** A context for `root`: a fresh signal, spills into the root, and the given settings. */
export function testContext(root: string, extra: Partial<TestContext> = {}): TestContext {
  return {
    root,
    signal: new AbortController().signal,
    spill: (text) => spillText(root, "test", text),
    ...extra,
  };
}

/** A tool, or a factory that builds it from the test's context (as the loop builds one per conversation). */
export type ToolUnderTest<A> = Tool<A> | ((ctx: TestContext) => Tool<A>);

/** read_file with the context's file tracker. */
export const readFileTool = (ctx: TestContext) => createReadFileTool({ files: ctx.files });
/** write_file with the context's file tracker. */
export const writeFileTool = (ctx: TestContext) => createWriteFileTool({ files: ctx.files });
/** edit_file with the context's file tracker. */
export const editFileTool = (ctx: TestContext) => createEditFileTool({ files: ctx.files });
/** execute_command with the context's sandbox mode and secrets (bubblewrap detected, or as `detect` says). */
export function shellTool(detect?: SandboxDetector) {
  return (ctx: TestContext) => createExecuteCommandTool({ ...ctx.shell, detect });
}
/** execute_command as tern builds it on this machine. */
export const executeCommandTool = shellTool();

function toolOf<A>(tool: ToolUnderTest<A>, ctx: TestContext): Tool<A> {
  return typeof tool === "function" ? tool(ctx) : tool;
}

function fullContext(ctx: TestContext): ToolContext {
  return {
    root: ctx.root,
    signal: ctx.signal,
    spill: ctx.spill ?? ((text) => spillText(ctx.root, "test", text)),
  };
}

/** The tests' one temp-project helper, re-exported beside the tool helpers. */
export { tempProject } from "../support/temp_project.ts";

/** A result as most tests compare it: the model's text and whether it is an error. */
export interface Outcome {
  content: string;
  isError: boolean;
}

/** Runs a tool as the registry would, but lets unexpected (non-ToolError) errors fail the test. */
export async function call<A>(tool: ToolUnderTest<A>, args: A, ctx: TestContext): Promise<Outcome> {
  const { content, error } = await callResult(tool, args, ctx);
  return { content, isError: error !== undefined };
}

/** Like `call`, with the whole structured result (details, the error's kind). */
export async function callResult<A>(tool: ToolUnderTest<A>, args: A, ctx: TestContext): Promise<ToolResult> {
  try {
    const result = await toolOf(tool, ctx).run(args, fullContext(ctx));
    return typeof result === "string" ? { content: result } : result;
  } catch (error) {
    if (error instanceof ToolError) return { content: error.message, error: { kind: error.kind } };
    throw error;
  }
}

/** Inspects a call as the loop does before asking approval; a ToolError's message when the dry run refuses. */
export async function inspect<A>(tool: ToolUnderTest<A>, args: A, ctx: TestContext) {
  try {
    return await toolOf(tool, ctx).inspect(args, fullContext(ctx));
  } catch (error) {
    if (error instanceof ToolError) return { refused: error.message, kind: error.kind };
    throw error;
  }
}

/** Runs a shell command for test setup (mkfifo, truncate, ps); returns stdout. */
export async function sh(script: string, cwd?: string): Promise<string> {
  const { stdout, success, stderr } = await new Deno.Command("bash", { args: ["-c", script], cwd }).output();
  if (!success) throw new Error(`setup failed: ${script}: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

/** True while process `pid` exists and is not a zombie (PID 1 here may never reap orphans). */
export async function alive(pid: number): Promise<boolean> {
  const { stdout } = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).output();
  const stat = new TextDecoder().decode(stdout).trim();
  return stat !== "" && !stat.startsWith("Z");
}
