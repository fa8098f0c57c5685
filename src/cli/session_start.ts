/**
 * Start-up shared by every front end (the REPL, `-p`, `tern acp`): the configuration for a project root,
 * the project's own files, its MCP servers and one `AgentSession` built with every part the CLI chose.
 */
import { type CliArgs, UsageError, VERSION } from "./args.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { AgentSession } from "../agent/agent_session.ts";
import { loadMemory } from "../agent/memory.ts";
import type { LoadedSession } from "../agent/session.ts";
import { discoverSkills } from "../agent/skills.ts";
import { discoverAgents, type FoundAgents, userAgentDir } from "../agent/agents.ts";
import { PermissionRules } from "../agent/permission_rules.ts";
import { unknownTools } from "../agent/required_tools.ts";
import { loadProjectSettings, saveRule } from "../config/project_settings.ts";
import { type SandboxStatus, sandboxStatus } from "../tools/shell/sandbox.ts";
import { parseModelArgs } from "./commands/model.ts";
import { adviseOnLlmProblem } from "./errors.ts";
import { terminalSafe } from "./render/terminal_safe.ts";
import { askOnTerminal, checkProjectEndpoint } from "./prompts/endpoint_trust.ts";
import { askTrustOnTerminal, type McpStartup, startMcp } from "./mcp_startup.ts";

type Project = Awaited<ReturnType<typeof readProject>>;

/** How a front end starts a session. */
export interface StartOptions {
  /** The project root (real path): the sandbox of the session's tools. */
  root: string;
  /** Collects what must be stopped before the process exits (MCP servers). */
  atExit: (() => Promise<void>)[];
  /** A person at a terminal can answer the trust questions (the project's endpoint, its MCP servers). */
  interactive: boolean;
  /** The REPL: undo snapshots before each prompt. */
  repl: boolean;
  /** The saved session to continue, chosen once the configuration is known (it may ask). */
  resume?: () => Promise<LoadedSession | undefined>;
}

/** What start-up produced: the session and what the front ends show besides it. */
export interface StartedSession {
  config: Config;
  session: AgentSession;
  mcp: McpStartup;
  sandbox: SandboxStatus;
  skillProblems: readonly string[];
  /** The named agents found, with the files skipped (for /agents). */
  agents: FoundAgents;
}

/**
 * Starts a session on `options.root` as `args` say; throws a ConfigError or UsageError (exit code 2 on the
 * command line) for what cannot work. Warnings and notes go to stderr, never stdout.
 */
export async function startSession(args: CliArgs, options: StartOptions): Promise<StartedSession> {
  const { root, interactive } = options;
  const config = await loadConfig({ args, env: Deno.env.toObject(), root });
  for (const warning of config.warnings) console.error(`tern: ${warning}`);
  // Started now, awaited when needed: the sandbox probe (a bwrap start) and the project's own files.
  const probing = sandboxStatus(config.sandbox);
  const reading = readProject(root);
  // Their failures surface where they are awaited; until then they must not count as unhandled.
  for (const pending of [probing, reading]) pending.catch(() => {});
  await checkProjectEndpoint(config, {
    trusted: args.trustProjectEnv ?? false,
    ask: interactive ? askOnTerminal : undefined,
  });
  const project = await reading;
  const mcp = await startMcp({
    root,
    env: Deno.env.toObject(),
    sandbox: config.sandbox,
    trustFlag: args.trustProjectMcp === true,
    ask: interactive ? askTrustOnTerminal : undefined,
  });
  if (mcp.hub) options.atExit.push(() => mcp.hub!.close());
  for (const note of mcp.notes) console.error(`tern: ${terminalSafe(note)}`);
  const resume = await options.resume?.();
  const session = await openSession({ args, config, project, mcp, resume, repl: options.repl });
  if (config.requireTools) checkRequiredTools(config.requireTools, session.current.registry.specs());
  const { skillProblems, agents } = project;
  return { config, session, mcp, sandbox: await probing, skillProblems, agents };
}

/** The project's own files, read in parallel: permission rules, skills, memory, agents (the user's too). */
async function readProject(root: string) {
  const [settings, { skills, problems }, memory, agents] = await Promise.all([
    loadProjectSettings(root),
    discoverSkills(root),
    loadMemory(root),
    discoverAgents(root, { userDir: userAgentDir(Deno.env.toObject()) }),
  ]);
  return { settings, skills, skillProblems: problems, memory, agents };
}

/** The session of this run, with every part the CLI chose; a `--fallback` without a key exits 2. */
async function openSession(options: {
  args: CliArgs;
  config: Config;
  project: Project;
  mcp: McpStartup;
  resume?: LoadedSession;
  repl: boolean;
}): Promise<AgentSession> {
  const { args, config, project, mcp } = options;
  for (const warning of project.settings.warnings) console.error(`tern: ${terminalSafe(warning)}`);
  for (const problem of project.memory?.problems ?? []) console.error(`tern: ${terminalSafe(problem)}`);
  // Permission rules from .tern/settings.json: allow and deny, for the REPL and headless runs alike.
  const rules = new PermissionRules(project.settings.permissions);
  for (const rule of rules.invalid) {
    console.error(
      `tern: .tern/settings.json: "${terminalSafe(rule)}" is not a rule like "edit_file(src/**)"`,
    );
  }
  return await AgentSession.create({
    config,
    version: VERSION,
    env: Deno.env.toObject(),
    contextWindow: args.contextWindow,
    fallback: args.fallback === undefined ? undefined : fallbackRequest(args.fallback),
    save: !args.noSession,
    snapshots: options.repl,
    frontEnd: options.repl ? "repl" : "headless",
    skills: project.skills,
    memory: project.memory,
    agents: project.agents.agents,
    mcpServers: () => mcp.hub?.servers ?? [],
    allowLocalFetch: args.allowLocalFetch === true,
    rules,
    saveRule: (rule) => saveRule(config.root, "allow", rule),
    resume: options.resume,
    keepStartModel: args.model !== undefined || args.provider !== undefined || args.baseUrl !== undefined,
    advise: adviseOnLlmProblem, // failures name the flags and variables that fix them
    onNotice: (message) => console.error(`tern: ${terminalSafe(message)}`),
  });
}

/** The `--fallback` value as a switch request; a malformed one is bad usage (exit 2). */
function fallbackRequest(value: string) {
  const choice = parseModelArgs([value]);
  if (choice !== undefined) return choice;
  throw new UsageError(
    `--fallback must be PROVIDER or PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5 (got '${value}')`,
  );
}

/** `--require-tools` names a tool that does not exist: bad usage (exit 2), naming the known tools. */
function checkRequiredTools(required: string[], tools: { name: string }[]): void {
  const known = tools.map((tool) => tool.name);
  const unknown = unknownTools(required, known);
  if (unknown.length === 0) return;
  throw new UsageError(
    `--require-tools names unknown tool(s) ${unknown.join(", ")}; known tools: ${known.join(", ")}`,
  );
}
