/**
 * The one door into a project. Every front end (the REPL, `-p`, stream-json, `tern acp`, the Action's run)
 * opens its root here and gets a `Project`: the configuration, tern's own state claimed, ONE trust decision
 * for everything the project supplies (asked through the front end's callback, or answered by flags), the
 * sandbox probe, the file wall, MCP servers, hooks, skills, agents, commands and memory. Sessions come only
 * from `Project.newSession`, so a wall or a feature set up here holds in every front end.
 */
import { loadConfig } from "../../config/config.ts";
import { describeSuppliedHook } from "../../config/hook_settings.ts";
import { sandboxStatus } from "../../tools/shell/sandbox.ts";
import { describeServers } from "../../tools/mcp/trust.ts";
import { usePlaceholderPool } from "../../tools/shell/placeholder_pool.ts";
import { openFileWall } from "../../fs/file_wall.ts";
import { discoverCommands, userCommandDir } from "./custom_commands.ts";
import { boundStatePath, stateDir } from "../state/tern_dir.ts";
import { claimState } from "../state/claim_state.ts";
import { checkOwnState } from "../state/check.ts";
import { decideProjectTrust, type ProjectSupplies, untrustedNote } from "../policy/project_trust.ts";
import { checkProjectEndpoint } from "./endpoint.ts";
import { sandboxAcrossProcesses } from "./sandbox_start.ts";
import { projectServerLines, setUpDiagnostics } from "./lsp_startup.ts";
import { startHub } from "../../tools/mcp/hub_start.ts";
import { fromProject, runHooks, trustedAgents } from "./trust_applied.ts";
import { Project, type ProjectChoices } from "./project.ts";
import { type ProjectFiles, readProject } from "./project_files.ts";
import { chooseFirstSession, type FirstSession } from "../log/session_choice.ts";

export type { ProjectChoices };

/**
 * Opens the project at `root` (a real path) as `choices` say; throws a ConfigError (exit 2 on the command
 * line) for what cannot work, such as a project's `.env` pointing the user's key at an untrusted endpoint.
 * `first`: the saved session the command line chose, loaded as soon as tern's own state is claimed (a
 * wrong id, or none picked, ends the run before anything is asked or started).
 */
export async function openProject(
  root: string,
  choices: ProjectChoices,
  first?: FirstSession,
): Promise<Project> {
  const { env, warn } = choices;
  const swept = claimOwnState(root, warn);
  const resumed = first && await chooseFirstSession(root, first, warn);
  const config = await loadConfig({ args: choices.configArgs, env, root });
  for (const warning of config.warnings) warn(warning);
  // Started now, awaited when needed: the sandbox probe (a bwrap start) and the project's own files.
  const sandbox = sandboxStatus(config.sandbox);
  const reading = readProject(root, env, warn);
  for (const pending of [sandbox, reading]) pending.catch(() => {});
  const files = await reading;
  const supplies: ProjectSupplies = {
    ...suppliedFiles(files),
    endpoint: config.untrustedEndpoint,
    // The servers as this run would start them: the sandbox mode decides what each may reach.
    mcp: files.mcp.config && {
      text: files.mcp.config.text,
      lines: describeServers(files.mcp.config, config.sandbox),
    },
  };
  const trust = await decideProjectTrust(root, supplies, {
    flags: choices.trustFlags,
    ask: choices.askTrust,
  });
  checkProjectEndpoint(config, trust.endpoint);
  const untrusted = untrustedNote(supplies, trust);
  if (untrusted) warn(untrusted);
  await swept; // before anything sandboxed starts (MCP servers, hooks)
  for (const note of files.mcp.notes) warn(note);
  const hooks = await runHooks(files, trust, sandbox);
  sayFileProblems(files, trust.project ? hooks.notes : [], warn);
  const lsp = { own: files.ownSettings?.lsp, project: files.settings.lsp };
  const servers = { root, sandbox: config.sandbox, trusted: trust.project };
  return new Project({
    root,
    resumed,
    config,
    files,
    trust,
    sandbox,
    hooks,
    commands: await discoverCommands(root, { userDir: userCommandDir(env), project: trust.project }),
    agents: trustedAgents(files.agents, trust),
    choices,
    // Loaded only when a sub-agent asks for one; handed the door, so it needs no import of it.
    isolate: async (name) =>
      (await import("./isolated_child.ts")).isolatedPlace(root, name, choices, openProject),
    open: (other) => openProject(other, choices),
    // The language servers: set up now, each started at the first edit of its language (tools/lsp/).
    diagnostics: setUpDiagnostics({ root, sandbox: config.sandbox, trust, ...lsp, env, warn }),
    // The trusted servers start last, once all that is said at the start has been said; nothing waits here.
    mcp: trust.mcp && files.mcp.config
      ? { hub: await startHub(files.mcp.config.servers, servers), notes: files.mcp.notes }
      : { notes: [...files.mcp.notes, ...(supplies.mcp && untrusted ? [untrusted] : [])] },
  });
}

/**
 * tern's own state claimed before anything reads it: a .tern/local/ the repository brought (or a copy
 * carried), and what a git pull or checkout wrote into it since (no seal of this directory), are moved aside
 * and said; the one file wall opened. Returns the sweep of placeholders that tern processes killed
 * mid-command left, to be awaited before anything sandboxed starts.
 */
function claimOwnState(root: string, warn: (line: string) => void): Promise<void> {
  const claimed = claimState(root);
  if (claimed) warn(claimed);
  const checked = checkOwnState(root);
  if (checked) warn(checked);
  // The one file wall: every file tool of every session writes through tern's helper (fs/file_wall.ts).
  openFileWall(warn);
  // The sandbox's placeholders are kept in tern's own state folder between commands, where it has one.
  usePlaceholderPool((dir) => boundStatePath(dir) === undefined ? undefined : stateDir(dir, "placeholders"));
  // Placeholders claimed across tern processes; what a tern killed mid-command left is undone before the
  // project is handed out (no command runs earlier), beside the rest of the start-up.
  const swept = sandboxAcrossProcesses(root, warn);
  swept.catch(() => {});
  return swept;
}

/** What the project's files could not give: hooks left out (said once trusted), settings and memory problems. */
function sayFileProblems(files: ProjectFiles, hookNotes: string[], warn: (line: string) => void): void {
  for (const note of hookNotes) warn(note);
  for (const warning of [...files.settings.warnings, ...files.ownSettings?.warnings ?? []]) warn(warning);
  for (const problem of files.memory?.problems ?? []) warn(problem);
}

/** What of the project's own files waits for the user's trust (the run adds its endpoint and servers). */
function suppliedFiles(files: ProjectFiles): Omit<ProjectSupplies, "endpoint" | "mcp"> {
  return {
    allowRules: files.settings.permissions.allow,
    memory: files.memory?.source,
    skills: files.skills.map((skill) => skill.name),
    agents: files.agents.agents.filter((agent) => fromProject(agent.source)).map((agent) => agent.source),
    commands: files.commandFiles,
    hooks: files.settings.hooks.map(describeSuppliedHook),
    lsp: projectServerLines(files.settings.lsp),
    settingsFiles: files.settings.files,
  };
}
