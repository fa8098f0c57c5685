/**
 * tern as an ACP agent: the handlers of one connection. Each `session/new` or `session/load` opens a session
 * through the core's one door (open_sessions.ts: a root's `Project` is opened once and shared); a prompt runs
 * on it with the editor as the approval gate (and, when the client offers its fs methods, as the files).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ApproveMode } from "../../config/settings.ts";
import type { CliArgs } from "../args.ts";
import { VERSION } from "../version.ts";
import { PromptContentError, promptText } from "./prompt_text.ts";
import { ProjectRootError } from "./project_root.ts";
import { replayUpdates } from "./updates.ts";
import { AcpSessions, EditorRequestError, type OpenSession } from "./open_sessions.ts";
import { availableCommands, runPrompt } from "./prompt_run.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { npmPackage } from "../../npm.ts";

const sdk = await npmPackage("@agentclientprotocol/sdk");

/** The approval modes an editor can pick (`session/set_mode`). */
export const MODES: acp.SessionMode[] = [
  { id: "ask", name: "Ask", description: "Ask before edits and before commands that are risky" },
  { id: "edits", name: "Edits", description: "Edits run; protected paths and risky commands still ask" },
  { id: "all", name: "All", description: "Everything runs without asking" },
  { id: "plan", name: "Plan", description: "Only read-only tools run; the agent ends by presenting a plan" },
];

/** What every session of the connection shares. */
export interface AcpAgentOptions {
  /** The command line's choices (model, approval, sandbox, budgets). */
  args: CliArgs;
  /** The directory tern acp started in: every session's cwd must be in it. */
  allowed: string;
  atExit: (() => Promise<void>)[];
}

/** The agent app of one connection: register the handlers, then `connect` it to a stream. */
export function ternAgent(options: AcpAgentOptions): acp.AgentApp {
  const handlers = new Handlers(options);
  return sdk.agent({ name: "tern" })
    .onRequest(sdk.methods.agent.initialize, ({ params }) => handlers.initialize(params))
    .onRequest(sdk.methods.agent.session.new, ({ params, client }) => handlers.newSession(params, client))
    .onRequest(sdk.methods.agent.session.load, ({ params, client }) => handlers.loadSession(params, client))
    .onRequest(sdk.methods.agent.session.setMode, ({ params }) => handlers.setMode(params))
    .onRequest(sdk.methods.agent.session.prompt, ({ params, client }) => handlers.prompt(params, client))
    .onNotification(sdk.methods.agent.session.cancel, ({ params }) => handlers.cancel(params));
}

/** The state of one connection (its sessions, the client's capabilities) and a handler per method. */
class Handlers {
  readonly #sessions: AcpSessions;
  #client: acp.ClientCapabilities = {};

  constructor(options: AcpAgentOptions) {
    this.#sessions = new AcpSessions(options.args, options.allowed);
    options.atExit.push(() => this.#sessions.close());
  }

  initialize(params: acp.InitializeRequest): acp.InitializeResponse {
    this.#client = params.clientCapabilities ?? {};
    return {
      protocolVersion: sdk.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      authMethods: [],
      agentInfo: { name: "tern", title: "tern", version: VERSION },
    };
  }

  async newSession(params: acp.NewSessionRequest, editor: acp.AgentContext): Promise<acp.NewSessionResponse> {
    const { id, open } = await asRequestError(() =>
      this.#sessions.start({ cwd: params.cwd, mcpServers: params.mcpServers })
    );
    this.#offerCommands(id, open, editor);
    return { sessionId: id, modes: modeState(open.session.mode) };
  }

  async loadSession(
    params: acp.LoadSessionRequest,
    editor: acp.AgentContext,
  ): Promise<acp.LoadSessionResponse> {
    const { id, open } = await asRequestError(() =>
      this.#sessions.start({ cwd: params.cwd, resumeId: params.sessionId, mcpServers: params.mcpServers })
    );
    const { conversation } = open.session.current;
    const live = conversation.live().indices.map((i) => conversation.entries[i]);
    for (const update of replayUpdates(open.session.root, live)) {
      await editor.notify(sdk.methods.client.session.update, { sessionId: id, update });
    }
    this.#offerCommands(id, open, editor);
    return { modes: modeState(open.session.mode) };
  }

  setMode(params: acp.SetSessionModeRequest): acp.SetSessionModeResponse {
    const open = this.#find(params.sessionId);
    if (!MODES.some((mode) => mode.id === params.modeId)) {
      throw sdk.RequestError.invalidParams(
        { modeId: params.modeId },
        `unknown mode "${params.modeId}": use one of ${MODES.map((mode) => mode.id).join(", ")}`,
      );
    }
    open.session.mode = params.modeId as ApproveMode;
    return {};
  }

  async prompt(params: acp.PromptRequest, editor: acp.AgentContext): Promise<acp.PromptResponse> {
    const open = this.#find(params.sessionId);
    if (open.running) {
      throw sdk.RequestError.invalidRequest(
        { sessionId: params.sessionId },
        "a prompt is already running in this session: wait for it, or send session/cancel",
      );
    }
    let text: string;
    try {
      text = promptText(params.prompt);
    } catch (error) {
      if (!(error instanceof PromptContentError)) throw error;
      throw sdk.RequestError.invalidParams(undefined, error.message);
    }
    const running = this.#run(open, text, { sessionId: params.sessionId, editor });
    open.running = running;
    try {
      return await running;
    } finally {
      open.running = undefined;
    }
  }

  cancel(params: acp.CancelNotification): void {
    this.#sessions.get(params.sessionId)?.session.cancel();
  }

  async #run(open: OpenSession, text: string, where: { sessionId: string; editor: acp.AgentContext }) {
    // The first request carries the trusted servers' tools: wait for them (bounded), and say who is missing.
    for (const line of await open.serversReady()) console.error(`tern: ${terminalSafe(line)}`);
    return await runPrompt(open.session, text, { ...where, client: this.#client, commands: open.commands });
  }

  /** Tells the editor which slash commands the session takes (after the session/new response is out). */
  #offerCommands(sessionId: string, open: OpenSession, editor: acp.AgentContext): void {
    const update = availableCommands(open.commands);
    setTimeout(() => {
      editor.notify(sdk.methods.client.session.update, { sessionId, update })
        .catch((error) => console.error(`tern: available_commands_update failed: ${error}`));
    }, 0);
  }

  #find(sessionId: string): OpenSession {
    const open = this.#sessions.get(sessionId);
    if (open) return open;
    throw new sdk.RequestError(
      -32002,
      `no session "${sessionId}" on this connection: call session/new (or session/load) first`,
      { sessionId },
    );
  }
}

function modeState(mode: ApproveMode): acp.SessionModeState {
  return { currentModeId: mode, availableModes: MODES };
}

/** Runs `task`; what the user must fix (a cwd, a key, a missing session) becomes a clear JSON-RPC error. */
async function asRequestError<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof ProjectRootError || error instanceof EditorRequestError) {
      throw sdk.RequestError.invalidParams(undefined, error.message);
    }
    if (!(error instanceof Error)) throw error;
    if (error.name === "SessionError") throw new sdk.RequestError(-32002, error.message);
    if (error.name === "ConfigError") throw new sdk.RequestError(-32000, error.message);
    if (error.name === "UsageError") throw sdk.RequestError.invalidParams(undefined, error.message);
    throw sdk.RequestError.internalError(undefined, error.message);
  }
}
