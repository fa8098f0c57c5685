/**
 * What the command line chooses when a front end opens a project (agent/project/open_project.ts): the run
 * settings, the trust flags, the terminal's trust question, and the session defaults. Bad usage (a malformed
 * `--fallback`, an unknown `--require-tools` name) exits 2 here, before anything starts.
 */
import type { CliArgs } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { VERSION } from "./version.ts";
import type { ProjectChoices } from "../agent/project/open_project.ts";
import type { FirstSession, SessionPicker } from "../agent/log/session_choice.ts";
import type { AgentSession } from "../agent/agent_session.ts";
import type { Project } from "../agent/project/project.ts";
import { unknownTools } from "../agent/loop/required_tools.ts";
import { parseModelArgs } from "./commands/model.ts";
import { adviseOnLlmProblem } from "./errors.ts";
import { terminalSafe } from "./render/terminal_safe.ts";
import { askProjectTrustOnTerminal } from "./prompts/project_trust.ts";

/** One line on stderr, made terminal-safe (it may quote the project's files). */
export function warn(line: string): void {
  console.error(`tern: ${terminalSafe(line)}`);
}

/** The choices of `args`; `interactive`: a person at a terminal can answer the trust question. */
export function projectChoices(args: CliArgs, interactive: boolean): ProjectChoices {
  return {
    configArgs: args,
    env: Deno.env.toObject(),
    trustFlags: { project: args.trustProject, env: args.trustProjectEnv, mcp: args.trustProjectMcp },
    askTrust: interactive ? askProjectTrustOnTerminal : undefined,
    warn,
    sessions: {
      version: VERSION,
      contextWindow: args.contextWindow,
      fallback: args.fallback === undefined ? undefined : fallbackRequest(args.fallback),
      save: !args.noSession,
      allowLocalFetch: args.allowLocalFetch === true,
      keepStartModel: args.model !== undefined || args.provider !== undefined, // --base-url names no model
      advise: adviseOnLlmProblem, // failures name the flags and variables that fix them
    },
  };
}

/**
 * The saved session `-c`, `-r [ID]` and `--fork` ask for, or undefined for a new one; `pick` asks when `-r`
 * names none, `repl`: `-c` takes the latest REPL conversation.
 */
export function firstSessionChoice(
  args: CliArgs,
  pick: SessionPicker,
  repl = false,
): FirstSession | undefined {
  if (!args.continue && args.resume === undefined) return undefined;
  return { continue: args.continue, resume: args.resume, fork: args.fork, repl, pick };
}

/** The `--fallback` value as a switch request; a malformed one is bad usage (exit 2). */
function fallbackRequest(value: string) {
  const choice = parseModelArgs([value]);
  if (choice !== undefined) return choice;
  throw new UsageError(
    `--fallback must be PROVIDER or PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5 (got '${value}')`,
  );
}

/**
 * `--require-tools` names a tool that does not exist: bad usage (exit 2), naming the known tools. A tool of
 * a starting MCP server (`mcp__<server>__…`) is not known yet: it is left to the run.
 */
export function checkRequiredTools(project: Project, session: AgentSession): void {
  const required = project.config.requireTools;
  if (!required) return;
  const servers = project.mcp.hub?.servers.map((server) => server.config.name) ?? [];
  const known = session.offeredToolNames();
  const starting = (name: string) => servers.some((server) => name.startsWith(`mcp__${server}__`));
  const unknown = unknownTools(required.filter((name) => !starting(name)), known);
  if (unknown.length === 0) return;
  throw new UsageError(
    `--require-tools names unknown tool(s) ${unknown.join(", ")}; known tools: ${known.join(", ")}`,
  );
}
