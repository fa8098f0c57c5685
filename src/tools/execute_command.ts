/**
 * execute_command: run a shell command in the project root — deny-listed disasters refused, a reduced
 * environment, secrets redacted, inside bubblewrap when it works, in its own process group with a timeout
 * and an output cap; binary output shown escaped, background processes left at its end killed and said.
 */

import { deniedReason } from "./shell/deny_list.ts";
import { destructiveReason } from "./shell/destructive.ts";
import { guardedPaths } from "./shell/guarded_paths.ts";
import { Redactor } from "./shell/redact.ts";
import { childEnv, SECRET_NAME } from "./shell/child_env.ts";
import { type Finished, runInGroup } from "./shell/process_group.ts";
import { confinedArgv, detectBubblewrap, type SandboxDetector } from "./shell/sandbox.ts";
import { HeadTail, MAX_OUTPUT_CHARS, truncateMiddle } from "./_truncate.ts";
import type { SandboxMode } from "../config/settings.ts";
import {
  type CallInspection,
  FatalToolError,
  type Tool,
  type ToolContext,
  type ToolDetails,
  ToolError,
  type ToolResult,
} from "./tool.ts";

/** Timeout when the model gives none, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Longest timeout the model may ask for, in milliseconds. */
export const MAX_TIMEOUT_MS = 600_000;

/** Characters of output kept for the spill file at most (its first and last halves); the rest is counted. */
export const MAX_SPILL_CHARS = 2 * 1024 * 1024;

/**
 * Bytes of output after which a command is killed (8× the spill capture): past it nothing more is kept,
 * so a flood (`yes`) would only burn CPU until its timeout.
 */
export const MAX_OUTPUT_BYTES = 8 * MAX_SPILL_CHARS;

/** Background processes named in a result at most. */
const MAX_SURVIVORS_SHOWN = 5;

/** Output that suggests the sandbox, not the command, is what failed. */
const READ_ONLY_FAILURE = /Read-only file system/i;
const NETWORK_FAILURE =
  /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|No address associated with hostname|getaddrinfo|EAI_AGAIN|ENETUNREACH|Connection refused|ECONNREFUSED/i;

const description =
  `Run a bash command in the project root; returns stdout+stderr, and the exit code if not 0. \
stdin is closed; killed after timeout_ms (default ${DEFAULT_TIMEOUT_MS}). With bubblewrap it runs \
sandboxed: no network, writes only inside the project (not .git/config or .git/hooks). A deny-list refuses \
obvious disasters; never work around it.`;

const parameters = {
  type: "object",
  properties: {
    command: { type: "string" },
    timeout_ms: { type: "integer", minimum: 1, maximum: MAX_TIMEOUT_MS },
    network: { type: "boolean", description: "Only if needed; always needs the user's approval." },
  },
  required: ["command"],
  additionalProperties: false,
};

/** Arguments of execute_command, as validated against its schema. */
export type ExecuteCommandArgs = { command: string; timeout_ms?: number; network?: boolean };

/**
 * The command's output in bounded memory, redacted before anything is cut: the view for the model
 * (MAX_OUTPUT_CHARS) and a larger capture for the spill file (MAX_SPILL_CHARS), both head + tail.
 */
class Output {
  readonly view = new HeadTail(MAX_OUTPUT_CHARS);
  readonly full = new HeadTail(MAX_SPILL_CHARS);
  total = 0;
  readonly #redactor: Redactor;

  constructor(secrets: string[]) {
    this.#redactor = new Redactor(secrets);
  }

  push(text: string): void {
    this.#add(this.#redactor.push(text));
  }

  end(): void {
    this.#add(this.#redactor.flush());
  }

  #add(text: string): void {
    this.total += text.length;
    this.view.push(text);
    this.full.push(text);
  }
}

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

/** Saves the full output when the view had to cut it; says where (or why it could not), and the path. */
async function spillNote(output: Output, ctx: ToolContext): Promise<{ note: string; savedAs?: string }> {
  if (output.total <= MAX_OUTPUT_CHARS) return { note: "" };
  const cut = output.total > MAX_SPILL_CHARS;
  try {
    const path = await ctx.spill(output.full.toString());
    const kept = cut
      ? `too long to keep whole: its first and last ${MAX_SPILL_CHARS / 2} characters are in ${path}`
      : `saved in full to ${path}`;
    const note = `\n[output: ${output.total} characters, ${kept}; page it with read_file (offset and limit ` +
      "in lines) or search it with grep_code]";
    return { note, savedAs: path };
  } catch (error) {
    // Worded for the model: no absolute path of the machine outside the root.
    const why = (error instanceof Error ? error.message : String(error)).replaceAll(ctx.root, ".")
      .replace(/(^|[\s'"(])\/[^\s'")]*/g, "$1…");
    return { note: `\n[output: ${output.total} characters; the full output could not be saved (${why})]` };
  }
}

/** A hint when a sandboxed command seems to have failed on the sandbox rather than on its own. */
function sandboxHint(text: string, network: boolean): string {
  if (!READ_ONLY_FAILURE.test(text) && (network || !NETWORK_FAILURE.test(text))) return "";
  const writes = "writes only inside the project, not to .git/config or .git/hooks";
  if (network) return `\n(commands run in a sandbox: ${writes})`;
  return `\n(commands run in a sandbox: no network, ${writes}; ask with network: true if you need the network)`;
}

/** Lines about what the command printed and left behind: binary output, background processes. */
function aftermath(run: Finished): { note: string; details: ToolDetails } {
  let note = run.binary ? `\n[binary output, ${run.bytes} bytes, shown escaped]` : "";
  const details: ToolDetails = {};
  const { killed = 0, survivors = [] } = run.leftovers ?? {};
  if (killed > 0) {
    note += `\n[${killed} background process${killed === 1 ? " was" : "es were"} still running at the ` +
      "command's end and killed]";
    details.killedBackground = killed;
  }
  if (survivors.length > 0) {
    const shown = survivors.slice(0, MAX_SURVIVORS_SHOWN).map((line) => truncateMiddle(line, 120));
    const more = survivors.length > shown.length ? `; and ${survivors.length - shown.length} more` : "";
    note += `\n[still running after the command's end (they left its session): ${shown.join("; ")}${more}; ` +
      "kill them if they should not outlive it]";
    details.survivors = survivors;
  }
  return { note, details };
}

async function report(
  run: Finished & { output: Output; durationMs: number },
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
    return { content: `${body}\n[cancelled by the user: ${killed}]`, details, error: { kind: "cancelled" } };
  }
  const hint = run.code !== 0 && context.sandbox ? sandboxHint(shown, context.sandbox.network) : "";
  // Success is the silent case (the description says so): every later request repeats this result.
  return {
    content: run.code === 0 ? body : `${body}\n[exit code ${run.code}]${hint}`,
    details: { ...details, exitCode: run.code },
    ...(run.code !== 0 ? { error: { kind: "exit_code" as const } } : {}),
  };
}

/** Settings of execute_command. */
export interface ExecuteCommandOptions {
  /** Sandbox mode (default "auto": bubblewrap when it works). */
  sandbox?: SandboxMode;
  /** Secret values (the API key) redacted from any output, besides secret-named variables of tern's own. */
  secrets?: string[];
  /** How bubblewrap is detected (default: probe once per process); tests simulate machines with it. */
  detect?: SandboxDetector;
}

/** Builds execute_command with its sandbox mode and the secrets to redact. */
export function createExecuteCommandTool(options: ExecuteCommandOptions = {}): Tool<ExecuteCommandArgs> {
  const detect = options.detect ?? detectBubblewrap;
  const mode = options.sandbox ?? "auto";
  const fromEnv = Object.entries(Deno.env.toObject()).filter(([name]) => SECRET_NAME.test(name));
  const secrets = [...(options.secrets ?? []), ...fromEnv.map(([, value]) => value)];

  /** Whether this call may run here and how: refused by the deny-list, or confined (or not). */
  const plan = async (args: ExecuteCommandArgs) => {
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

  const inspect = async (args: ExecuteCommandArgs): Promise<CallInspection> => {
    const { sandboxed, network } = await plan(args);
    const firstLine = args.command.trim().split("\n")[0];
    const destructive = destructiveReason(args.command);
    return {
      effect: network ? "network" : "exec",
      paths: [],
      sandboxed,
      ...(destructive && { destructive }),
      summary: firstLine,
      preview: { kind: "command", command: args.command },
    };
  };

  const run = async (args: ExecuteCommandArgs, ctx: ToolContext): Promise<ToolResult> => {
    if (ctx.signal.aborted) {
      return { content: "Cancelled before the command started.", error: { kind: "cancelled" } };
    }
    const { sandboxed, network, userNamespace } = await plan(args);
    const env = childEnv({ sandboxed });
    const shell = ["bash", "-c", args.command];
    // The one protected list: read-only inside the sandbox, and not to be created there either.
    const guarded = sandboxed ? await guardedPaths(ctx.root) : undefined;
    const confined = { root: ctx.root, home: env.HOME, path: env.PATH, network, userNamespace };
    const argv = guarded ? await confinedArgv({ ...confined, ...guarded }, shell) : shell;
    const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const output = new Output(secrets);
    const started = performance.now();
    const finished = await runInGroup(argv, {
      cwd: ctx.root,
      env,
      signal: ctx.signal,
      timeoutMs,
      sink: output,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      sandboxed: guarded !== undefined,
    });
    const durationMs = Math.round(performance.now() - started);
    await guarded?.cleanUp();
    return report({ ...finished, output, durationMs }, {
      ctx,
      timeoutMs,
      sandbox: sandboxed ? { network } : undefined,
    });
  };
  return {
    name: "execute_command",
    description,
    parameters,
    inspect,
    run,
  };
}
