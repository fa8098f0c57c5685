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
import { loadProjectSettings, saveRule } from "../config/project_settings.ts";
import { sandboxStatus } from "../tools/shell/sandbox.ts";
import { closeFileHelper, useFileHelper } from "../fs/file_helper.ts";
import { mcpTools } from "../tools/mcp/adapter.ts";
import { chooseSession } from "./commands/sessions.ts";
import { parseModelArgs } from "./commands/model.ts";
import { adviseOnLlmProblem } from "./errors.ts";
import { terminalSafe } from "./render/terminal_safe.ts";
import { askOnTerminal, checkProjectEndpoint } from "./prompts/endpoint_trust.ts";
import { createLineReader } from "./input/line_reader.ts";
import { askTrustOnTerminal, type McpStartup, startMcp } from "./mcp_startup.ts";

type Project = Awaited<ReturnType<typeof readProject>>;

/** Runs tern with parsed `args`; `atExit` collects what must be stopped before the process exits. */
export async function runApp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  const root = Deno.realPathSync(Deno.cwd());
  // The file tools' checks run in one long-lived helper instead of a process each (file_helper.ts).
  useFileHelper();
  atExit.push(closeFileHelper);
  const config = await loadConfig({ args, env: Deno.env.toObject(), root });
  for (const warning of config.warnings) console.error(`tern: ${warning}`);
  // Started now, awaited when needed: the sandbox probe (a bwrap start) and the project's own files.
  const probing = sandboxStatus(config.sandbox);
  const reading = readProject(root);
  // Their failures surface where they are awaited; until then they must not count as unhandled.
  for (const pending of [probing, reading]) pending.catch(() => {});
  const headless = config.prompt !== undefined;
  const interactive = !headless && Deno.stdin.isTerminal();
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
  if (mcp.hub) atExit.push(() => mcp.hub!.close());
  for (const note of mcp.notes) console.error(`tern: ${terminalSafe(note)}`);
  const resume = await firstSession(root, args, headless);
  const session = await openSession({ args, config, project, mcp, resume, repl: !headless });
  if (config.requireTools) checkRequiredTools(config.requireTools, session.current.registry.specs());
  if (headless) {
    // Not awaited first: the task starts while the probe runs (headless prints its line when it has it).
    const { runHeadlessCli } = await import("./headless/cli.ts");
    return await runHeadlessCli(session, { config, sandbox: probing });
  }
  const sandbox = await probing;
  const { runReplCli } = await import("./repl_cli.ts");
  return await runReplCli(session, { config, sandbox, mcp, skillProblems: project.skillProblems });
}

/** The project's own files, read in parallel: permission rules, skills and memory. */
async function readProject(root: string) {
  const [settings, { skills, problems }, memory] = await Promise.all([
    loadProjectSettings(root),
    discoverSkills(root),
    loadMemory(root),
  ]);
  return { settings, skills, skillProblems: problems, memory };
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
    skills: project.skills,
    memory: project.memory,
    mcpTools: () => mcpTools(mcp.hub?.servers ?? []).tools,
    allowLocalFetch: args.allowLocalFetch === true,
    rules,
    saveRule: (rule) => saveRule(config.root, "allow", rule),
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
