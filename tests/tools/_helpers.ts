/** Test helpers for the tools: temp projects with an outside neighbour, and calling tools like the registry does. */

import { join } from "node:path";
import { type Tool, type ToolContext, ToolError, type ToolResult } from "../../src/tools/tool.ts";

/** A temp project root plus siblings outside it; removed on dispose. */
export interface TempProject extends AsyncDisposable {
  /** Real path of the project root. */
  root: string;
  /** A directory next to the root, outside it, holding `secret.txt`. */
  outside: string;
  /** `<root>-evil`: a sibling whose name starts with the root's name. */
  evil: string;
  /** A context for tool runs in this project. */
  ctx: ToolContext;
}

/** Creates `parent/{proj, proj-evil, outside}` in a fresh temp dir. */
export async function tempProject(): Promise<TempProject> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-tools-" }));
  const root = join(parent, "proj");
  const evil = join(parent, "proj-evil");
  const outside = join(parent, "outside");
  for (const dir of [root, evil, outside]) await Deno.mkdir(dir);
  await Deno.writeTextFile(join(outside, "secret.txt"), "outside secret\n");
  await Deno.writeTextFile(join(evil, "secret.txt"), "evil secret\n");
  return {
    root,
    outside,
    evil,
    ctx: { root, signal: new AbortController().signal },
    [Symbol.asyncDispose]: () => Deno.remove(parent, { recursive: true }),
  };
}

/** Runs a tool as the registry would, but lets unexpected (non-ToolError) errors fail the test. */
export async function call<A>(tool: Tool<A>, args: A, ctx: ToolContext): Promise<ToolResult> {
  try {
    const result = await tool.run(args, ctx);
    return typeof result === "string" ? { content: result, isError: false } : result;
  } catch (error) {
    if (error instanceof ToolError) return { content: error.message, isError: true };
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
