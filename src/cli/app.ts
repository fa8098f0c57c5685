/**
 * The run behind tern's entry: the configuration and the project's own files, one `AgentSession`, then a
 * front end for it (one headless task, or the REPL). Loaded only once the arguments asked for a run.
 */
import { type CliArgs, UsageError, VERSION } from "./args.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { AgentSession } from "../agent/agent_session.ts";
import { loadMemory } from "../agent/memory.ts";
import type { LoadedSession } from "../agent/session.ts";
import { discoverSkills } from "../agent/skills.ts";
import { PermissionRules } from "../agent/permission_rules.ts";
import { unknownTools } from "../agent/required_tools.ts";
import {
  loadProjectSettings,
  OWN_SETTINGS_PATH,
  type PermissionSettings,
  readSettings,
  saveRule,
} from "../config/project_settings.ts";
import { sandboxStatus } from "../tools/shell/sandbox.ts";
import { mcpTools } from "../tools/mcp/adapter.ts";
import { describeServers } from "../tools/mcp/trust.ts";
import { KEY_VARIABLES } from "../config/providers.ts";
import { boundStatePath, claimState, stateDir } from "../agent/tern_dir.ts";
import {
  decideProjectTrust,
  type ProjectSupplies,
  type ProjectTrust,
  untrustedNote,
} from "../agent/project_trust.ts";
import { chooseSession } from "./commands/sessions.ts";
import { parseModelArgs } from "./commands/model.ts";
import { adviseOnLlmProblem } from "./errors.ts";
import { terminalSafe } from "./render/terminal_safe.ts";
import { askProjectTrustOnTerminal, checkProjectEndpoint } from "./prompts/project_trust.ts";
import { createLineReader } from "./input/line_reader.ts";
import { type McpStartup, readMcp, startMcp } from "./mcp_startup.ts";

type Project = Awaited<ReturnType<typeof readProject>>;

function warn(line: string): void {
  console.error(`tern: ${terminalSafe(line)}`);
}

/** Runs tern with parsed `args`; `atExit` collects what must be stopped before the process exits. */
export async function runApp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  const root = Deno.realPathSync(Deno.cwd());
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
  const headless = config.prompt !== undefined;
  const interactive = !headless && Deno.stdin.isTerminal();
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
  const mcp: McpStartup = trust.mcp && project.mcp.config
    ? await startMcp({ root, env, sandbox: config.sandbox, config: project.mcp.config })
    : { notes: [] };
  if (mcp.hub) atExit.push(() => mcp.hub!.close());
  for (const note of [...project.mcp.notes, ...mcp.notes]) warn(note);
  const resume = await firstSession(root, args, headless);
  const session = await openSession({ args, config, project, trust, mcp, resume, repl: !headless });
  if (config.requireTools) checkRequiredTools(config.requireTools, session.current.registry.specs());
  const sandbox = await probing;
  if (headless) {
    const { runHeadlessCli } = await import("./headless/cli.ts");
    return await runHeadlessCli(session, { config, sandbox });
  }
  const { runReplCli } = await import("./repl_cli.ts");
  const skillProblems = trust.project ? project.skillProblems : [];
  return await runReplCli(session, { config, sandbox, mcp, skillProblems });
}

/**
 * The project's own files, read in parallel: permission rules, skills, memory and `.mcp.json` (whose
 * `${VAR}` never take tern's own key variables, unless the user's own settings pass one to a server).
 */
async function readProject(root: string, env: Record<string, string>) {
  const own = boundStatePath(root, "settings.json");
  const ownSettings = own === undefined ? undefined : await readSettings(own, OWN_SETTINGS_PATH);
  const withheld = { names: KEY_VARIABLES, granted: ownSettings?.mcpPassEnv };
  const [settings, { skills, problems }, memory, mcp] = await Promise.all([
    loadProjectSettings(root),
    discoverSkills(root),
    loadMemory(root),
    readMcp(root, env, withheld),
  ]);
  return { settings, ownSettings, skills, skillProblems: problems, memory, mcp };
}

/** What of the project waits for the user's trust. */
function projectSupplies(project: Project, config: Config): ProjectSupplies {
  return {
    endpoint: config.untrustedEndpoint,
    mcp: project.mcp.config && { text: project.mcp.config.text, lines: describeServers(project.mcp.config) },
    allowRules: project.settings.permissions.allow,
    memory: project.memory?.source,
    skills: project.skills.map((skill) => skill.name),
  };
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
  mcp: McpStartup;
  resume?: LoadedSession;
  repl: boolean;
}): Promise<AgentSession> {
  const { args, config, project, mcp, trust } = options;
  for (const warning of [...project.settings.warnings, ...project.ownSettings?.warnings ?? []]) warn(warning);
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
    skills: trust.project ? project.skills : [],
    memory: project.memory && { ...project.memory, trusted: trust.project },
    mcpTools: () => mcpTools(mcp.hub?.servers ?? [], keyValues(config)).tools,
    allowLocalFetch: args.allowLocalFetch === true,
    rules,
    saveRule: async (rule) => await saveRule(stateDir(config.root, ""), "allow", rule),
    resume: options.resume,
    keepStartModel: args.model !== undefined || args.provider !== undefined || args.baseUrl !== undefined,
    advise: adviseOnLlmProblem, // failures name the flags and variables that fix them
    onNotice: (message) => console.error(`tern: ${terminalSafe(message)}`),
  });
}

/** The session to continue (-c, -r), chosen here because choosing may ask on the terminal; else none. */
async function firstSession(
  root: string,
  args: { continue?: boolean; resume?: string },
  headless: boolean,
): Promise<LoadedSession | undefined> {
  if (!args.continue && args.resume === undefined) return undefined;
  const ask = headless ? undefined : async (list: string[]) => {
    console.error(list.join("\n"));
    const reader = createLineReader();
    try {
      return await reader.read("session number or id: ");
    } finally {
      reader.close();
    }
  };
  const loaded = await chooseSession(root, args, ask);
  for (const repair of loaded.repairs) console.error(`tern: session ${loaded.header.id}: ${repair}`);
  return loaded;
}

/** The values of tern's own key variables and the key in use: redacted from what MCP servers return. */
function keyValues(config: Config): string[] {
  const values = KEY_VARIABLES.map((name) => Deno.env.get(name) ?? "").filter((value) => value !== "");
  return config.apiKey ? [config.apiKey, ...values] : values;
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
