/**
 * An opened project (open_project.ts is its door): what the trust decision allowed, read once, and the only
 * way to an `AgentSession`. It owns what it started (MCP servers, its sessions) and closes them together.
 */
import type { Config } from "../../config/config.ts";
import type { ModelRequest } from "../../config/provider_switch.ts";
import type { McpHub, McpServer } from "../../tools/mcp/client.ts";
import type { DiagnosticsService } from "../../tools/lsp/diagnostics.ts";
import type { SandboxStatus } from "../../tools/shell/sandbox.ts";
import type { CallContext } from "../../llm/retry.ts";
import { AgentSession } from "../agent_session.ts";
import type { FoundAgents } from "./agents.ts";
import type { FoundCommands } from "./custom_commands.ts";
import { loadMemory } from "./memory.ts";
import { PermissionRules } from "../policy/permission_rules.ts";
import type { ProjectTrust } from "../policy/project_trust.ts";
import type { LoadedSession } from "../log/session_file.ts";
import { saveOwnRule } from "../state/own_settings.ts";
import { type McpStartup, waitForMcp } from "./mcp_startup.ts";
import type { ProjectFiles } from "./project_files.ts";
import type { ProjectTrustAsker, TrustFlags } from "../policy/project_trust.ts";
import type { ConfigArgs } from "../../config/config.ts";
import { type RunHooks, runRules } from "./trust_applied.ts";
import type { ChildPlace, ChildSetup } from "../loop/sub_agents.ts";

/** What every session of a project takes from the command line. */
export interface SessionDefaults {
  version: string;
  contextWindow?: number;
  fallback?: ModelRequest;
  /** False with --no-session. */
  save: boolean;
  allowLocalFetch: boolean;
  /** The command line named the model or endpoint: a resumed session moves to it. */
  keepStartModel: boolean;
  /** The front end's words for a failed model call (which flag or variable fixes it). */
  advise?: CallContext["advise"];
}

/** What a front end chooses when it opens a project. */
export interface ProjectChoices {
  /** The command line's run settings and model choice. */
  configArgs: ConfigArgs;
  /** The real environment (keys, TERN_* variables). */
  env: Record<string, string>;
  /** The command line's trust flags. */
  trustFlags: TrustFlags;
  /** Asks the trust question of a person (the REPL); absent: the flags, or nothing, decide. */
  askTrust?: ProjectTrustAsker;
  /** One line for the human (stderr, an editor's log); the front end makes it safe to show. */
  warn: (line: string) => void;
  /** What every session of the project takes from the command line. */
  sessions: SessionDefaults;
}

/** What one new session is opened with. */
export interface NewSessionOptions {
  /** The saved session to continue (`-c`, `-r`, ACP's `session/load`). */
  resume?: LoadedSession;
  /** Which front end drives it, written in the session file's header. */
  frontEnd: "repl" | "headless";
  /** Undo snapshots before each prompt (the REPL). */
  snapshots?: boolean;
  /** MCP servers of this session only (an editor's, from ACP's `session/new`), closed with it. */
  ownServers?: McpHub;
  /** A sub-agent's session in this project (a worktree of its own): its main session's model and rules. */
  child?: { config: Config; setup: ChildSetup; rules: PermissionRules };
}

interface ProjectParts {
  root: string;
  resumed?: LoadedSession;
  config: Config;
  files: ProjectFiles;
  trust: ProjectTrust;
  mcp: McpStartup;
  sandbox: Promise<SandboxStatus>;
  hooks: RunHooks;
  commands: FoundCommands;
  agents: FoundAgents;
  /** The language servers behind the edit tools' diagnostics; absent when the settings turn them off. */
  diagnostics?: DiagnosticsService;
  choices: ProjectChoices;
  /** A worktree of this project for a sub-agent, opened through the door (the task tool's isolation). */
  isolate: (name: string) => Promise<ChildPlace>;
  /** The door, with this project's choices: another project to work in (the REPL's `/worktree`). */
  open: (root: string) => Promise<Project>;
}

/** One project, opened once: see the module comment. */
export class Project {
  readonly root: string;
  /** The saved session the command line chose to continue (`-c`, `-r`, `--fork`), loaded by the door. */
  readonly resumed?: LoadedSession;
  readonly config: Config;
  /** The one trust decision for what the project supplies. */
  readonly trust: ProjectTrust;
  readonly mcp: McpStartup;
  /** The sandbox probe, still running: the REPL's banner waits for it, a headless task does not. */
  readonly sandbox: Promise<SandboxStatus>;
  /** The command files found (the project's only once it is trusted), with the files skipped. */
  readonly commands: FoundCommands;
  /** The named agents offered (the project's only once it is trusted), with the files skipped. */
  readonly agents: FoundAgents;
  /** Why hooks that were found do not run (for /hooks). */
  readonly hookNotes: readonly string[];
  readonly #parts: ProjectParts;
  #closed = false;
  readonly #sessions = new Set<{ session: AgentSession; servers?: McpHub }>();
  #mcpWaited?: Promise<string[]>;

  constructor(parts: ProjectParts) {
    this.#parts = parts;
    ({ root: this.root, resumed: this.resumed, config: this.config, trust: this.trust, mcp: this.mcp } =
      parts);
    ({ sandbox: this.sandbox, commands: this.commands, agents: this.agents } = parts);
    this.hookNotes = parts.hooks.notes;
  }

  /** Problems of the skill files (shown only when the project is trusted: untrusted skills are not read). */
  get skillProblems(): readonly string[] {
    return this.trust.project ? this.#parts.files.skillProblems : [];
  }

  /**
   * Waits, once, for the trusted MCP servers to be ready or failed, bounded by `TERN_MCP_STARTUP_MS`: one
   * line for each server the run goes on without. Headless runs call it before their first request.
   */
  mcpReady(): Promise<string[]> {
    const hub = this.mcp.hub;
    if (!hub) return Promise.resolve([]);
    this.#mcpWaited ??= waitForMcp(hub, this.#parts.choices.env);
    return this.#mcpWaited;
  }

  /** A new session on this project, with everything the trust decision allowed; closed with the project. */
  async newSession(options: NewSessionOptions): Promise<AgentSession> {
    if (options.child) return await this.#childSession(options.child);
    const { config, files, trust, choices } = this.#parts;
    const defaults = choices.sessions;
    const rules = new PermissionRules(runRules(files, trust));
    for (const rule of rules.invalid) {
      choices.warn(`a permission rule "${rule}" is not a rule like "edit_file(src/**)"`);
    }
    // What loading the saved session had to leave out, said here for every door (-c, -r, ACP's load).
    const resumed = options.resume;
    for (const repair of resumed?.repairs ?? []) choices.warn(`session ${resumed?.header.id}: ${repair}`);
    const servers = (): readonly McpServer[] => [
      ...this.mcp.hub?.servers ?? [],
      ...options.ownServers?.servers ?? [],
    ];
    const session = await AgentSession.create({
      config,
      version: defaults.version,
      env: choices.env,
      contextWindow: defaults.contextWindow,
      fallback: defaults.fallback,
      save: defaults.save,
      snapshots: options.snapshots,
      frontEnd: options.frontEnd,
      skills: trust.project ? files.skills : [],
      memory: files.memory && { ...files.memory, trusted: trust.project },
      reloadMemory: async () => {
        const memory = await loadMemory(config.root);
        return memory && { ...memory, trusted: trust.project };
      },
      agents: this.agents.agents,
      mcpServers: servers,
      allowLocalFetch: defaults.allowLocalFetch,
      rules,
      saveRule: (rule) => saveOwnRule(config.root, "allow", rule),
      resume: options.resume,
      hooks: this.#parts.hooks.hooks,
      diagnostics: this.#parts.diagnostics,
      keepStartModel: defaults.keepStartModel,
      advise: defaults.advise,
      onNotice: choices.warn,
      // The task tool's isolation, offered at a repository's top only: a worktree of this project, opened
      // through the door (loaded only then).
      ...hasGit(this.root) && { isolate: this.#parts.isolate },
    });
    this.#sessions.add({ session, servers: options.ownServers });
    return session;
  }

  /** A sub-agent's session here: this project's walls, servers and hooks; the main session's model. */
  async #childSession(child: NonNullable<NewSessionOptions["child"]>): Promise<AgentSession> {
    const { config, choices } = this.#parts;
    const defaults = choices.sessions;
    const session = await AgentSession.create({
      config: { ...child.config, root: config.root, sandbox: config.sandbox },
      version: defaults.version,
      env: choices.env,
      fallback: defaults.fallback,
      save: false,
      mcpServers: () => this.mcp.hub?.servers ?? [],
      allowLocalFetch: defaults.allowLocalFetch,
      rules: child.rules,
      child: child.setup,
      hooks: this.#parts.hooks.hooks,
      diagnostics: this.#parts.diagnostics,
      advise: defaults.advise,
      onNotice: choices.warn,
    });
    this.#sessions.add({ session });
    return session;
  }

  /** Closes one session of this project with everything it started (background processes, its servers). */
  async closeSession(session: AgentSession): Promise<void> {
    for (const open of this.#sessions) {
      if (open.session !== session) continue;
      this.#sessions.delete(open);
      session.cancel();
      await session.close();
      await open.servers?.close({ wait: false });
    }
  }

  /** The project at `root` (a worktree of this one) opened through the door with the same choices. */
  openAnother(root: string): Promise<Project> {
    return this.#parts.open(root);
  }

  /**
   * Closes every session, then the MCP servers: `wait: false` (a headless run whose answer is out) signals
   * them and returns at once instead of waiting for each to exit.
   */
  async close(options: { wait?: boolean } = {}): Promise<void> {
    if (this.#closed) return; // once: the REPL closes a project it left, and the exit closes the first
    this.#closed = true;
    await Promise.all([...this.#sessions].map((open) => this.closeSession(open.session)));
    await Promise.all([
      this.mcp.hub?.close({ wait: options.wait !== false }),
      this.#parts.diagnostics?.close(),
    ]);
  }
}

/** Whether `root` has a `.git` (a folder, or a worktree's file): where the task tool offers isolation. */
function hasGit(root: string): boolean {
  try {
    Deno.lstatSync(`${root}/.git`);
    return true;
  } catch {
    return false;
  }
}
