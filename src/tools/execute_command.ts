/**
 * execute_command: run a shell command in the project root — deny-listed disasters refused, a reduced
 * environment, secrets redacted, inside bubblewrap when it works, in its own process group with a timeout.
 */

import { deniedReason } from "./_deny_list.ts";
import { Redactor } from "./_redact.ts";
import { type Finished, runInGroup } from "./_process_group.ts";
import { confinedArgv, detectBubblewrap, type SandboxDetector } from "./_sandbox.ts";
import { HeadTail, MAX_OUTPUT_CHARS } from "./_truncate.ts";
import { spillText } from "./spill.ts";
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";

export {
  type Confinement,
  confinement,
  detectBubblewrap,
  isSandboxed,
  type SandboxDetector,
  type SandboxProbe,
  type SandboxStatus,
  sandboxStatus,
} from "./_sandbox.ts";

/** Timeout when the model gives none, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Longest timeout the model may ask for, in milliseconds. */
export const MAX_TIMEOUT_MS = 600_000;

/** Characters of output kept for the spill file at most (its first and last halves); the rest is counted. */
export const MAX_SPILL_CHARS = 2 * 1024 * 1024;

/** Environment variables passed to commands (plus LC_*); everything else (API keys above all) stays behind. */
const PASSED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR", "TZ"];

/** Names never passed on, whatever the list above says; their values are also redacted from output. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

/** Output that suggests the sandbox, not the command, is what failed. */
const READ_ONLY_FAILURE = /Read-only file system/i;
const NETWORK_FAILURE =
  /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|No address associated with hostname|getaddrinfo|EAI_AGAIN|ENETUNREACH|Connection refused|ECONNREFUSED/i;

const description = `Run a shell command with bash in the project root and return its exit code and output.
stdout and stderr are combined; stdin is closed (interactive programs get end-of-file). Output beyond \
${MAX_OUTPUT_CHARS} characters keeps its beginning and end, and the full output is saved to a file under \
.tern/tool-outputs/ whose path the result gives (read it with read_file). The command is killed (with all its \
child processes) after timeout_ms. The environment is reduced: API keys and other secrets are not passed, and \
their values are redacted from the output. Where bubblewrap is available, commands run in a sandbox: no \
network, writes only inside the project (.git/config and .git/hooks read-only), /tmp and $HOME private and \
empty. Set network: true only when the command needs the network (the user must approve it). A short \
deny-list refuses obvious disasters (sudo, rm -rf ~, curl | sh, ...): it is a speed bump, not a security \
wall; never try to get around it. Prefer read_file, list_dir and edit_file for files.`;

const parameters = {
  type: "object",
  properties: {
    command: { type: "string", description: "The bash command line to run, e.g. `deno test -A`." },
    timeout_ms: {
      type: "integer",
      minimum: 1,
      maximum: MAX_TIMEOUT_MS,
      description:
        `Kill the command after this many milliseconds. Default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}.`,
    },
    network: {
      type: "boolean",
      description: "Ask for network access (e.g. to install packages); always needs the user's approval. " +
        "Default false: in the sandbox commands have no network.",
    },
  },
  required: ["command"],
  additionalProperties: false,
};

/** Arguments of execute_command, as validated against its schema. */
export type ExecuteCommandArgs = { command: string; timeout_ms?: number; network?: boolean };

/** The reduced environment a command runs with: a few harmless variables, never a secret. */
export function childEnv(options: { sandboxed?: boolean } = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(Deno.env.toObject())) {
    if ((PASSED_ENV.includes(name) || name.startsWith("LC_")) && !SECRET_NAME.test(name)) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  // Inside the sandbox only /tmp (private) and the project are writable.
  if (options.sandboxed) env.TMPDIR = "/tmp";
  return env;
}

/** The values to hide: the configured secrets, and any secret-named variable in tern's own environment. */
function secretValues(ctx: ToolContext): string[] {
  const fromEnv = Object.entries(Deno.env.toObject()).filter(([name]) => SECRET_NAME.test(name));
  return [...(ctx.shell?.secrets ?? []), ...fromEnv.map(([, value]) => value)];
}

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
  return `execute_command refused: tern runs with --sandbox required, but ${reason}, so no command may run. ` +
    "Tell the user: install the Debian package bubblewrap (apt install bubblewrap), or restart tern with " +
    "--sandbox auto or --sandbox off.";
}

/** Saves the full output when the view had to cut it; says where, or why it could not. */
async function spillNote(output: Output, root: string): Promise<string> {
  if (output.total <= MAX_OUTPUT_CHARS) return "";
  const cut = output.total > MAX_SPILL_CHARS;
  try {
    const path = await spillText(root, "execute_command", output.full.toString());
    const kept = cut
      ? `too long to keep whole: its first and last ${MAX_SPILL_CHARS / 2} characters are in ${path}`
      : `saved in full to ${path}`;
    return `\n[output: ${output.total} characters, ${kept}; page it with read_file (offset and limit in lines) ` +
      "or search it with grep_code]";
  } catch (error) {
    // Worded for the model: no absolute path of the machine outside the root.
    const why = (error instanceof Error ? error.message : String(error)).replaceAll(root, ".")
      .replace(/(^|[\s'"(])\/[^\s'")]*/g, "$1…");
    return `\n[output: ${output.total} characters; the full output could not be saved (${why})]`;
  }
}

/** A hint when a sandboxed command seems to have failed on the sandbox rather than on its own. */
function sandboxHint(text: string, network: boolean): string {
  if (!READ_ONLY_FAILURE.test(text) && (network || !NETWORK_FAILURE.test(text))) return "";
  const writes = "writes only inside the project, not to .git/config or .git/hooks";
  if (network) return `\n(commands run in a sandbox: ${writes})`;
  return `\n(commands run in a sandbox: no network, ${writes}; ask with network: true if you need the network)`;
}

async function report(
  run: Finished & { output: Output },
  context: { root: string; timeoutMs: number; sandbox?: { network: boolean } },
): Promise<ToolResult> {
  const shown = run.output.view.toString();
  const body = (shown === "" ? "(no output)" : shown.replace(/\n$/, "")) +
    await spillNote(run.output, context.root);
  const killed = "the command and its child processes were killed";
  if (run.stopped === "timeout") {
    return { content: `${body}\n[timed out after ${seconds(context.timeoutMs)}: ${killed}]`, isError: true };
  }
  if (run.stopped === "cancel") {
    return { content: `${body}\n[cancelled by the user: ${killed}]`, isError: true };
  }
  const hint = run.code !== 0 && context.sandbox ? sandboxHint(shown, context.sandbox.network) : "";
  return { content: `${body}\n[exit code ${run.code}]${hint}`, isError: run.code !== 0 };
}

/** What can be swapped in tests: how bubblewrap is detected. */
export interface ExecuteCommandOptions {
  detect?: SandboxDetector;
}

/** Builds execute_command; `detect` decides whether bubblewrap works (default: probe once per process). */
export function createExecuteCommandTool(options: ExecuteCommandOptions = {}): Tool<ExecuteCommandArgs> {
  const detect = options.detect ?? detectBubblewrap;
  const run = async (args: ExecuteCommandArgs, ctx: ToolContext): Promise<ToolResult> => {
    if (ctx.signal.aborted) return { content: "Cancelled before the command started.", isError: true };
    const denied = deniedReason(args.command);
    if (denied) throw new ToolError(refusal(denied));
    const mode = ctx.shell?.sandbox ?? "auto";
    const probe = mode === "off" ? undefined : await detect();
    if (mode === "required" && !probe?.available) throw new ToolError(sandboxRequired(probe!.reason));
    const sandboxed = probe?.available === true;
    const network = args.network === true;
    const env = childEnv({ sandboxed });
    const shell = ["bash", "-c", args.command];
    const userNamespace = probe?.userNamespace;
    const argv = sandboxed
      ? confinedArgv({ root: ctx.root, home: env.HOME, path: env.PATH, network, userNamespace }, shell)
      : shell;
    const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const output = new Output(secretValues(ctx));
    const finished = await runInGroup(argv, {
      cwd: ctx.root,
      env,
      signal: ctx.signal,
      timeoutMs,
      sink: output,
    });
    return report({ ...finished, output }, {
      root: ctx.root,
      timeoutMs,
      sandbox: sandboxed ? { network } : undefined,
    });
  };
  return { name: "execute_command", description, parameters, effect: "exec", run };
}

/** The execute_command tool, with bubblewrap detected on first use. */
export const executeCommandTool: Tool<ExecuteCommandArgs> = createExecuteCommandTool();
