/**
 * The projects and sessions of one ACP connection. A root is opened once through the core's door and its
 * `Project` (MCP servers started once) is reused by every `session/new` on it; a session replaced by
 * `session/load` of the same id is closed with everything it started.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentSession } from "../../agent/agent_session.ts";
import { openProject } from "../../agent/project/open_project.ts";
import type { Project } from "../../agent/project/project.ts";
import { loadSession } from "../../agent/log/session_load.ts";
import type { CliArgs } from "../args.ts";
import { commandTable, withHelp } from "../commands/project_table.ts";
import type { SlashCommand } from "../commands/types.ts";
import { projectChoices } from "../project_choices.ts";
import { editorServerConfigs, startEditorServers } from "./editor_mcp.ts";
import { projectRoot } from "./project_root.ts";
import { waitForMcp } from "../../agent/project/mcp_startup.ts";

/** One session the editor has open. */
export interface OpenSession {
  session: AgentSession;
  project: Project;
  /** The session's slash commands (offered in `available_commands_update`, run when a prompt starts with one). */
  commands: SlashCommand[];
  running?: Promise<unknown>;
  /** Waits (once, bounded) for the project's servers and the editor's own: lines for those gone without. */
  serversReady(): Promise<string[]>;
}

/** What a session is opened with. */
export interface StartRequest {
  cwd: unknown;
  /** `session/load`: the saved session to continue. */
  resumeId?: string;
  mcpServers?: readonly acp.McpServer[];
}

/** An editor's request that cannot be met as asked (the handlers answer it as invalid params). */
export class EditorRequestError extends Error {
  override name = "EditorRequestError";
}

/** The connection's projects and sessions. */
export class AcpSessions {
  readonly #args: CliArgs;
  readonly #allowed: string;
  readonly #projects = new Map<string, Promise<Project>>();
  readonly #open = new Map<string, OpenSession>();

  constructor(args: CliArgs, allowed: string) {
    this.#args = args;
    this.#allowed = allowed;
  }

  /** Opens a session (a new one, or the saved one `resumeId` names) on the editor's cwd. */
  async start(request: StartRequest): Promise<{ id: string; open: OpenSession }> {
    const root = await projectRoot(request.cwd, this.#allowed);
    const project = await this.#project(root);
    const configs = editorServerConfigs(request.mcpServers ?? []);
    if (typeof configs === "string") throw new EditorRequestError(configs);
    const resume = request.resumeId === undefined ? undefined : await loadSession(root, request.resumeId);
    const ownServers = await startEditorServers(configs, { root, sandbox: project.config.sandbox });
    const session = await project.newSession({ resume, frontEnd: "headless", ownServers });
    const id = session.sessionId ?? request.resumeId ?? crypto.randomUUID();
    // Loading a session this connection has open replaces it: the old one is closed with what it started.
    const previous = this.#open.get(id);
    if (previous) await previous.project.closeSession(previous.session);
    let waited: Promise<string[]> | undefined;
    const serversReady = () =>
      waited ??= Promise.all([
        project.mcpReady(),
        ownServers ? waitForMcp(ownServers, Deno.env.toObject()) : [],
      ]).then((lines) => lines.flat());
    const open = { session, project, commands: withHelp(commandTable(project, session)), serversReady };
    this.#open.set(id, open);
    return { id, open };
  }

  /** The open session `id`, or undefined. */
  get(id: string): OpenSession | undefined {
    return this.#open.get(id);
  }

  /** Closes every project of the connection (its sessions, their processes, its servers). */
  async close(): Promise<void> {
    const projects = await Promise.all([...this.#projects.values()].map((p) => p.catch(() => undefined)));
    await Promise.all(projects.map((project) => project?.close()));
  }

  #project(root: string): Promise<Project> {
    let opening = this.#projects.get(root);
    if (!opening) {
      opening = openProject(root, projectChoices(this.#args, false));
      this.#projects.set(root, opening);
      // A root that failed to open (a bad key, an untrusted endpoint) is tried afresh next time.
      opening.catch(() => this.#projects.delete(root));
    }
    return opening;
  }
}
