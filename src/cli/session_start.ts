/**
 * Start-up shared by every front end (the REPL, `-p`, `tern acp`): the configuration for a project root,
 * the project's own files, one trust decision for what the project supplies, its MCP servers, and one
 * `AgentSession` built with every part the CLI chose.
 */
import { type CliArgs, UsageError, VERSION } from "./args.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { AgentSession } from "../agent/agent_session.ts";
import { loadMemory } from "../agent/memory.ts";
import type { LoadedSession } from "../agent/session.ts";
import { discoverSkills } from "../agent/skills.ts";
import { projectCommandFiles } from "../agent/custom_commands.ts";
import { discoverAgents, type FoundAgents, PROJECT_AGENT_DIRS, userAgentDir } from "../agent/agents.ts";
import { PermissionRules } from "../agent/permission_rules.ts";
import { unknownTools } from "../agent/required_tools.ts";
import {
  loadProjectSettings,
  OWN_SETTINGS_PATH,
  type PermissionSettings,
  readSettings,
  saveRule,
} from "../config/project_settings.ts";
import { KEY_VARIABLES } from "../config/providers.ts";
import { type SandboxStatus, sandboxStatus } from "../tools/shell/sandbox.ts";
import { describeServers } from "../tools/mcp/trust.ts";
import { boundStatePath, claimState, stateDir } from "../agent/tern_dir.ts";
import {
  decideProjectTrust,
  type ProjectSupplies,
  type ProjectTrust,
  untrustedNote,
} from "../agent/project_trust.ts";
import { parseModelArgs } from "./commands/model.ts";
import { adviseOnLlmProblem } from "./errors.ts";
import { terminalSafe } from "./render/terminal_safe.ts";
import { askProjectTrustOnTerminal, checkProjectEndpoint } from "./prompts/project_trust.ts";
import { type McpStartup, readMcp, startMcp } from "./mcp_startup.ts";
import { describeHook, type HookConfig } from "../config/hook_settings.ts";
import { setUpDiagnostics } from "./lsp_startup.ts";
import type { DiagnosticsService } from "../tools/lsp/diagnostics.ts";

type Project = Awaited<ReturnType<typeof readProject>>;

/** How a front end starts a session. */
export interface StartOptions {
  /** The project root (real path): the sandbox of the session's tools. */
  root: string;
  /** Collects what must be stopped before the process exits (MCP servers). */
  atExit: (() => Promise<void>)[];
  /** A person at a terminal can answer the trust question. */
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
  /** The sandbox probe, still running: the REPL's banner waits for it, a headless task does not. */
  sandbox: Promise<SandboxStatus>;
  skillProblems: readonly string[];
  /** The named agents found (the project's only when it is trusted), with the files skipped (for /agents). */
  agents: FoundAgents;
  /** The trust decision for what the project supplies. */
  trust: ProjectTrust;
  /** Why hooks that were found do not run (for /hooks). */
  hookNotes: readonly string[];
}

/** One line on stderr, made terminal-safe (it may quote the project's files). */
function warn(line: string): void {
  console.error(`tern: ${terminalSafe(line)}`);
}

/**
 * Starts a session on `options.root` as `args` say; throws a ConfigError or UsageError (exit code 2 on the
 * command line) for what cannot work. Warnings and notes go to stderr, never stdout.
 */
export async function startSession(args: CliArgs, options: StartOptions): Promise<StartedSession> {
  const { root, interactive } = options;
  // tern's own state: a .tern/local/ the repository brought (or a copy carried) is moved aside and said.
  const claimed = claimState(root);
  if (claimed) warn(claimed);
  const env = Deno.env.toObject();
  const config = await loadConfig({ args, env, root });
  for (const warning of config.warnings) console.error(`tern: ${warning}`);
  // Started now, awaited when needed: the sandbox probe (a bwrap start) and the project's own files.
  const probing = sandboxStatus(config.sandbox);
  const reading = readProject(root, env);
  // Their failures surface where they are awaited; until then they must not count as unhandled.
  for (const pending of [probing, reading]) pending.catch(() => {});
  const project = await reading;
  // One decision for everything the project supplies: asked once in the REPL, flags or nothing headless.
  const supplies = projectSupplies(project, config);
  const trust = await decideProjectTrust(root, supplies, {
    flags: { project: args.trustProject, env: args.trustProjectEnv, mcp: args.trustProjectMcp },
    ask: interactive ? askProjectTrustOnTerminal : undefined,
  });
  checkProjectEndpoint(config, trust.endpoint);
  const untrusted = untrustedNote(supplies, trust);
  if (untrusted) warn(untrusted);
  // Started, not awaited: the prompt is ready at once and a server's tools join when it is (mcp_watch.ts).
  const mcp: McpStartup = trust.mcp && project.mcp.config
    ? await startMcp({ root, sandbox: config.sandbox, config: project.mcp.config, trusted: trust.project })
    : { notes: [] };
  if (mcp.hub) options.atExit.push(() => mcp.hub!.close());
  for (const note of [...project.mcp.notes, ...mcp.notes]) warn(note);
  const agents = trustedAgents(project.agents, trust);
  const hooks = await runHooks(project, trust, probing);
  // Untrusted, the line above said so already.
  if (trust.project) { for (const note of hooks.notes) warn(note); }
  const resume = await options.resume?.();
  const lsp = { own: project.ownSettings?.lsp, project: project.settings.lsp };
  const diagnostics = setUpDiagnostics({ root, sandbox: config.sandbox, trust, ...lsp, env, warn });
  if (diagnostics) options.atExit.push(() => diagnostics.close());
  const session = await openSession({
    args,
    config,
    project,
    trust,
    agents,
    mcp,
    resume,
    repl: options.repl,
    hooks: hooks.hooks,
    diagnostics,
  });
  // The session's background processes are killed before tern exits.
  options.atExit.push(() => session.close());
  if (config.requireTools) {
    const servers = mcp.hub?.servers.map((server) => server.config.name) ?? [];
    checkRequiredTools(config.requireTools, session.current.registry.specs(), servers);
  }
  const skillProblems = trust.project ? project.skillProblems : [];
  return { config, session, mcp, sandbox: probing, skillProblems, agents, trust, hookNotes: hooks.notes };
}

/**
 * The project's own files, read in parallel: permission rules, skills, memory, agents (the user's too) and
 * `.mcp.json` (whose `${VAR}` never take tern's own key variables, unless the user's own settings pass one).
 */
async function readProject(root: string, env: Record<string, string>) {
  const own = boundStatePath(root, "settings.json");
  const ownSettings = own === undefined ? undefined : await readSettings(own, OWN_SETTINGS_PATH);
  const withheld = { names: KEY_VARIABLES, granted: ownSettings?.mcpPassEnv };
  const [settings, { skills, problems }, memory, mcp, agents, commands] = await Promise.all([
    loadProjectSettings(root),
    discoverSkills(root),
    loadMemory(root),
    readMcp(root, env, withheld),
    discoverAgents(root, { userDir: userAgentDir(env) }),
    projectCommandFiles(root),
  ]);
  const commandFiles = commands.files.map((file) => file.source);
  return { settings, ownSettings, skills, skillProblems: problems, memory, mcp, agents, commandFiles };
}

/** What of the project waits for the user's trust. */
function projectSupplies(project: Project, config: Config): ProjectSupplies {
  return {
    endpoint: config.untrustedEndpoint,
    mcp: project.mcp.config && {
      text: project.mcp.config.text,
      lines: describeServers(project.mcp.config, config.sandbox),
    },
    allowRules: project.settings.permissions.allow,
    memory: project.memory?.source,
    skills: project.skills.map((skill) => skill.name),
    agents: project.agents.agents.filter((agent) => fromProject(agent.source)).map((agent) => agent.source),
    commands: project.commandFiles,
    hooks: project.settings.hooks.map(describeHook),
  };
}

/**
 * The hooks of this run: the user's own (`.tern/local/settings.json`, run with the user's permissions), and
 * the project's once it is trusted, which run only inside the sandbox: where bubblewrap cannot confine them,
 * they are left out and said.
 */
async function runHooks(
  project: Project,
  trust: ProjectTrust,
  probing: Promise<SandboxStatus>,
): Promise<{ hooks: HookConfig[]; notes: string[] }> {
  const own = project.ownSettings?.hooks ?? [];
  const supplied = project.settings.hooks;
  if (supplied.length === 0) return { hooks: own, notes: [] };
  const count = `${supplied.length} hook${supplied.length === 1 ? "" : "s"} of .tern/settings.json`;
  if (!trust.project) return { hooks: own, notes: [`the ${count} do not run: the project is not trusted`] };
  const sandbox = await probing;
  if (sandbox.active) return { hooks: [...own, ...supplied], notes: [] };
  const why = sandbox.kind === "off" ? "--sandbox off" : sandbox.reason;
  return {
    hooks: own,
    notes: [`the ${count} do not run: a project's hooks run only in the sandbox (${why})`],
  };
}

/** Whether an agent came from the project's own folders (not the user's). */
function fromProject(source: string): boolean {
  return PROJECT_AGENT_DIRS.some((dir) => source.startsWith(`${dir}/`));
}

/** The named agents this run offers: the user's always, the project's only once the project is trusted. */
function trustedAgents(found: FoundAgents, trust: ProjectTrust): FoundAgents {
  if (trust.project) return found;
  const agents = found.agents.filter((agent) => !fromProject(agent.source));
  return { ...found, agents };
}

/** The rules of this run: every deny rule; the project's allow rules only when it is trusted; the user's own. */
function runRules(project: Project, trust: ProjectTrust): PermissionSettings {
  const own = project.ownSettings?.permissions ?? { allow: [], deny: [] };
  const supplied = project.settings.permissions;
  return {
    deny: [...supplied.deny, ...own.deny],
    allow: [...(trust.project ? supplied.allow : []), ...own.allow],
  };
}

/** The session of this run, with every part the CLI chose; a `--fallback` without a key exits 2. */
async function openSession(options: {
  args: CliArgs;
  config: Config;
  project: Project;
  trust: ProjectTrust;
  agents: FoundAgents;
  mcp: McpStartup;
  resume?: LoadedSession;
  repl: boolean;
  hooks: HookConfig[];
  diagnostics?: DiagnosticsService;
}): Promise<AgentSession> {
  const { args, config, project, mcp, trust } = options;
  for (const warning of [...project.settings.warnings, ...project.ownSettings?.warnings ?? []]) warn(warning);
  for (const problem of project.memory?.problems ?? []) warn(problem);
  // Permission rules for the REPL and headless runs alike (see runRules).
  const rules = new PermissionRules(runRules(project, trust));
  for (const rule of rules.invalid) {
    warn(`a permission rule "${rule}" is not a rule like "edit_file(src/**)"`);
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
    skills: trust.project ? project.skills : [],
    memory: project.memory && { ...project.memory, trusted: trust.project },
    reloadMemory: async () => {
      const memory = await loadMemory(config.root);
      return memory && { ...memory, trusted: trust.project };
    },
    agents: options.agents.agents,
    mcpServers: () => mcp.hub?.servers ?? [],
    allowLocalFetch: args.allowLocalFetch === true,
    rules,
    saveRule: async (rule) => await saveRule(stateDir(config.root, ""), "allow", rule),
    resume: options.resume,
    hooks: options.hooks,
    diagnostics: options.diagnostics,
    keepStartModel: args.model !== undefined || args.provider !== undefined || args.baseUrl !== undefined,
    advise: adviseOnLlmProblem, // failures name the flags and variables that fix them
    onNotice: (message) => warn(message),
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

/**
 * `--require-tools` names a tool that does not exist: bad usage (exit 2), naming the known tools. A tool of
 * a starting MCP server (`mcp__<server>__…`) is not known yet: it is left to the run.
 */
function checkRequiredTools(required: string[], tools: { name: string }[], servers: string[]): void {
  const known = tools.map((tool) => tool.name);
  const starting = (name: string) => servers.some((server) => name.startsWith(`mcp__${server}__`));
  const unknown = unknownTools(required.filter((name) => !starting(name)), known);
  if (unknown.length === 0) return;
  throw new UsageError(
    `--require-tools names unknown tool(s) ${unknown.join(", ")}; known tools: ${known.join(", ")}`,
  );
}
