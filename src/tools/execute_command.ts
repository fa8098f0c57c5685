/**
 * execute_command: run a shell command in the project root — deny-listed disasters refused, a reduced
 * environment, secrets redacted, inside bubblewrap when it works, in its own process group with a timeout
 * and an output cap; binary output shown escaped, background processes left at its end killed and said.
 */

import { deniedReason } from "./shell/deny_list.ts";
import { destructiveReason } from "./shell/destructive.ts";
import { guardedPaths } from "./shell/guarded_paths.ts";
import { runInGroup } from "./shell/process_group.ts";
import type { Finished } from "./shell/run_contract.ts";
import { detectBubblewrap, type SandboxDetector } from "./shell/sandbox.ts";
import { confinedArgv } from "./shell/confined_argv.ts";
import { aftermath, sandboxHint, spillNote } from "./shell/command_notes.ts";
import { CommandOutput, MAX_SPILL_CHARS } from "./shell/command_output.ts";
import { childEnv, SECRET_NAME } from "./shell/child_env.ts";
import { type BackgroundProcesses, startInBackground } from "./shell/background.ts";
import type { SandboxMode } from "../config/settings.ts";
import {
  type CallInspection,
  FatalToolError,
  stopWords,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolResult,
} from "./tool.ts";

/** The tool's name (the REPL's `!command` runs it too). */
export const EXECUTE_COMMAND = "execute_command";

/** Timeout when the model gives none, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Longest timeout the model may ask for, in milliseconds. */
export const MAX_TIMEOUT_MS = 600_000;

/**
 * Bytes of output after which a command is killed (8× the spill capture): past it nothing more is kept,
 * so a flood (`yes`) would only burn CPU until its timeout.
 */
export const MAX_OUTPUT_BYTES = 8 * MAX_SPILL_CHARS;

// A refusal, a timeout and a sandbox failure each say in their result what to do next (not repeated here).
const description = `Run bash command in the project root: stdout+stderr, exit code if not 0. No stdin; \
timeout_ms default ${DEFAULT_TIMEOUT_MS}. Sandboxed if possible: no network, writes only in the project.`;

const parameters = {
  type: "object",
  properties: {
    command: { type: "string" },
    timeout_ms: { type: "integer", minimum: 1, maximum: MAX_TIMEOUT_MS },
    network: { type: "boolean", description: "Asks the user." },
  },
  required: ["command"],
  additionalProperties: false,
};

/**
 * The parameter offered when the session keeps background processes; no description, as its name says it
 * (every request repeats it), and the result of a start says how to read and stop the process.
 */
const BACKGROUND = { type: "boolean" };

/** Arguments of execute_command, as validated against its schema. */
export type ExecuteCommandArgs = {
  command: string;
  timeout_ms?: number;
  network?: boolean;
  background?: boolean;
};

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function refusal(reason: string): string {
  return `execute_command refused this command: it matches the deny-list entry ${reason}. The deny-list is a ` +
    "speed bump for obvious disasters, not a security wall: do not try to get around it. If the command is " +
    "truly needed, ask the user to run it themselves, and tell them why.";
}

function sandboxRequired(reason: string): string {
  return `tern runs with --sandbox required, but ${reason}, so no command may run: install the Debian ` +
    "package bubblewrap (apt install bubblewrap), or restart tern with --sandbox auto or --sandbox off.";
}

async function report(
  run: Finished & { output: CommandOutput; durationMs: number },
  context: { ctx: ToolContext; timeoutMs: number; sandbox?: { network: boolean } },
): Promise<ToolResult> {
  const shown = run.output.view.toString();
  const spill = await spillNote(run.output, context.ctx);
  const after = aftermath(run);
  const body = (shown === "" ? "(no output)" : shown.replace(/\n$/, "")) + spill.note + after.note;
  const details = { durationMs: run.durationMs, spilledTo: spill.savedAs, ...after.details };
  const killed = "the command and its child processes were killed";
  if (run.stopped === "timeout") {
    return {
      content: `${body}\n[timed out after ${seconds(context.timeoutMs)}: ${killed}]`,
      details: { ...details, timedOut: true },
      error: { kind: "timeout" },
    };
  }
  if (run.stopped === "output_cap") {
    const cap = `${MAX_OUTPUT_BYTES / (1024 * 1024)} MiB`;
    return {
      content: `${body}\n[output passed ${cap} (${run.bytes} bytes read) after ${seconds(run.durationMs)}: ` +
        `${killed}. Send long output to a file and search it with grep_code, or limit it (head, grep, -q)]`,
      details: {
        ...details,
        timedOut: false,
        outputCapped: { capBytes: MAX_OUTPUT_BYTES, bytes: run.bytes },
      },
      error: { kind: "too_large" },
    };
  }
  if (run.stopped === "cancel") {
    const why = stopWords(context.ctx.signal);
    return { content: `${body}\n[${why}: ${killed}]`, details, error: { kind: "cancelled" } };
  }
  const hint = run.code !== 0 && context.sandbox ? sandboxHint(shown, context.sandbox.network) : "";
  // Success is the silent case (the description says so): every later request repeats this result.
  return {
    content: run.code === 0 ? body : `${body}\n[exit code ${run.code}]${hint}`,
    details: { ...details, exitCode: run.code },
    ...(run.code !== 0 ? { error: { kind: "exit_code" as const } } : {}),
  };
}

/** The result, saying which protected paths tern put back or removed after the command. */
function withRestored(result: ToolResult, restored: string[]): ToolResult {
  const note = `\n[the command changed protected paths, which tern undid: ${restored.join("; ")}. ` +
    "Protected files (git config and hooks, CI, env files, project instructions, tern's data) are not for " +
    "commands to change; ask the user if one must change]";
  return { ...result, content: result.content + note, details: { ...result.details, restored } };
}

/** Settings of execute_command. */
export interface ExecuteCommandOptions {
  /** Sandbox mode (default "auto": bubblewrap when it works). */
  sandbox?: SandboxMode;
  /** Secret values (the API key) redacted from any output, besides secret-named variables of tern's own. */
  secrets?: string[];
  /** How bubblewrap is detected (default: probe once per process); tests simulate machines with it. */
  detect?: SandboxDetector;
  /** Where `background: true` starts its process (absent: the parameter is not offered). */
  background?: BackgroundProcesses;
}

/** How a call runs on this machine: decided by `inspect` (deny-list, sandbox probe), handed to `run`. */
export interface CommandPlan {
  sandboxed: boolean;
  network: boolean;
  userNamespace?: boolean;
}

/** Builds execute_command with its sandbox mode and the secrets to redact. */
export function createExecuteCommandTool(
  options: ExecuteCommandOptions = {},
): Tool<ExecuteCommandArgs, CommandPlan> {
  const detect = options.detect ?? detectBubblewrap;
  const mode = options.sandbox ?? "auto";
  const fromEnv = Object.entries(Deno.env.toObject()).filter(([name]) => SECRET_NAME.test(name));
  const secrets = [...(options.secrets ?? []), ...fromEnv.map(([, value]) => value)];

  /** Whether this call may run here and how: refused by the deny-list, or confined (or not). */
  const plan = async (args: ExecuteCommandArgs): Promise<CommandPlan> => {
    const denied = deniedReason(args.command);
    if (denied) throw new ToolError(refusal(denied), "refused");
    const probe = mode === "off" ? undefined : await detect();
    if (mode === "required" && !probe?.available) throw new FatalToolError(sandboxRequired(probe!.reason));
    return {
      sandboxed: probe?.available === true,
      network: args.network === true,
      userNamespace: probe?.userNamespace,
    };
  };

  const inspect = async (args: ExecuteCommandArgs) => commandInspection(args, await plan(args));

  const run = async (
    args: ExecuteCommandArgs,
    ctx: ToolContext,
    planned?: CommandPlan,
  ): Promise<ToolResult> => {
    if (ctx.signal.aborted) {
      return { content: "Cancelled before the command started.", error: { kind: "cancelled" } };
    }
    const setup = { plan: planned ?? await plan(args), secrets };
    if (args.background && options.background) {
      const { command, timeout_ms: timeoutMs } = args;
      return await startInBackground(options.background, {
        ...setup.plan,
        command,
        root: ctx.root,
        secrets,
        timeoutMs,
      });
    }
    return await runCommand(args, ctx, setup);
  };
  const schema = options.background
    ? { ...parameters, properties: { ...parameters.properties, background: BACKGROUND } }
    : parameters;
  return { name: EXECUTE_COMMAND, description, parameters: schema, inspect, run };
}

/** What the approval gate and the screen see of a planned command. */
function commandInspection(
  args: ExecuteCommandArgs,
  planned: CommandPlan,
): CallInspection & { plan: CommandPlan } {
  const destructive = destructiveReason(args.command);
  return {
    effect: planned.network ? "network" : "exec",
    paths: [],
    sandboxed: planned.sandboxed,
    ...(destructive && { destructive }),
    summary: args.command.trim().split("\n")[0] + (args.background ? " &" : ""),
    preview: { kind: "command", command: args.command },
    plan: planned,
  };
}

/**
 * Runs the planned command in its process group, confined when planned so; its output streams into the
 * model's view, the spill capture and (when someone listens) the live tail of `ctx.onUpdate`.
 */
async function runCommand(
  args: ExecuteCommandArgs,
  ctx: ToolContext,
  setup: { plan: CommandPlan; secrets: string[] },
): Promise<ToolResult> {
  const { sandboxed, network, userNamespace } = setup.plan;
  const env = childEnv({ sandboxed });
  const shell = ["bash", "-c", args.command];
  // The one protected list: read-only inside the sandbox, and not to be created there either.
  const guarded = sandboxed ? guardedPaths(ctx.root) : undefined;
  const confined = { root: ctx.root, home: env.HOME, path: env.PATH, network, userNamespace };
  const argv = guarded ? await confinedArgv({ ...confined, ...guarded }, shell) : shell;
  const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const output = new CommandOutput(setup.secrets, ctx.onUpdate);
  const started = performance.now();
  const finished = await runInGroup(argv, {
    cwd: ctx.root,
    env,
    signal: ctx.signal,
    timeoutMs,
    sink: output,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    sandboxed: guarded !== undefined,
  }).finally(() => output.stop());
  const durationMs = Math.round(performance.now() - started);
  const restored = await guarded?.cleanUp() ?? [];
  const sandbox = sandboxed ? { network } : undefined;
  const result = await report({ ...finished, output, durationMs }, { ctx, timeoutMs, sandbox });
  return restored.length === 0 ? result : withRestored(result, restored);
}
