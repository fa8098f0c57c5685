/**
 * tern as an ACP agent: the handlers of one connection. Each `session/new` or `session/load` starts an
 * `AgentSession` through the CLI's own start-up (session_start.ts) on the editor's cwd; a prompt runs on it
 * with the editor as the approval gate (and, when the client offers its fs methods, as the file system).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentSession } from "../../agent/agent_session.ts";
import { loadSession } from "../../agent/session.ts";
import type { ExitReason } from "../../agent/events.ts";
import type { ApproveMode } from "../../config/settings.ts";
import type { EditorFiles } from "../../tools/tool.ts";
import { type CliArgs, VERSION } from "../args.ts";
import { startSession } from "../session_start.ts";
import { editorGate } from "./permission.ts";
import { PromptContentError, promptText } from "./prompt_text.ts";
import { projectRoot, ProjectRootError } from "./project_root.ts";
import { replayUpdates, UpdateMapper } from "./updates.ts";
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

interface Open {
  session: AgentSession;
  running?: Promise<unknown>;
}

/** The agent app of one connection: register the handlers, then `connect` it to a stream. */
export function ternAgent(options: AcpAgentOptions): acp.AgentApp {
  const handlers = new Handlers(options);
  return sdk.agent({ name: "tern" })
    .onRequest(sdk.methods.agent.initialize, ({ params }) => handlers.initialize(params))
    .onRequest(sdk.methods.agent.session.new, ({ params }) => handlers.newSession(params))
    .onRequest(sdk.methods.agent.session.load, ({ params, client }) => handlers.loadSession(params, client))
    .onRequest(sdk.methods.agent.session.setMode, ({ params }) => handlers.setMode(params))
    .onRequest(sdk.methods.agent.session.prompt, ({ params, client }) => handlers.prompt(params, client))
    .onNotification(sdk.methods.agent.session.cancel, ({ params }) => handlers.cancel(params));
}

/** The state of one connection (its sessions, the client's capabilities) and a handler per method. */
class Handlers {
  readonly #options: AcpAgentOptions;
  readonly #sessions = new Map<string, Open>();
  #client: acp.ClientCapabilities = {};

  constructor(options: AcpAgentOptions) {
    this.#options = options;
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

  async newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    const { id, modes } = await this.#start(params.cwd);
    return { sessionId: id, modes };
  }

  async loadSession(
    params: acp.LoadSessionRequest,
    editor: acp.AgentContext,
  ): Promise<acp.LoadSessionResponse> {
    const { id, session, modes } = await this.#start(params.cwd, params.sessionId);
    const { conversation } = session.current;
    const live = conversation.live().indices.map((i) => conversation.entries[i]);
    for (const update of replayUpdates(session.root, live)) {
      await editor.notify(sdk.methods.client.session.update, { sessionId: id, update });
    }
    return { modes };
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
    const running = runPrompt(open.session, text, {
      sessionId: params.sessionId,
      editor,
      client: this.#client,
    });
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

  #find(sessionId: string): Open {
    const open = this.#sessions.get(sessionId);
    if (open) return open;
    throw new sdk.RequestError(
      -32002,
      `no session "${sessionId}" on this connection: call session/new (or session/load) first`,
      { sessionId },
    );
  }

  async #start(cwd: unknown, resumeId?: string) {
    const root = await asRequestError(() => projectRoot(cwd, this.#options.allowed));
    const resume = resumeId === undefined
      ? undefined
      : await asRequestError(() => loadSession(root, resumeId));
    const { session } = await asRequestError(() =>
      startSession(this.#options.args, {
        root,
        atExit: this.#options.atExit,
        interactive: false,
        repl: false,
        resume: () => Promise.resolve(resume),
      })
    );
    const id = session.current.session?.id ?? resumeId ?? crypto.randomUUID();
    // Loading a session this connection has open replaces it: the old one stops and stops writing its file.
    const previous = this.#sessions.get(id)?.session;
    previous?.cancel();
    previous?.current.session?.detach();
    this.#sessions.set(id, { session });
    return { id, session, modes: modeState(session.mode) };
  }
}

/** One prompt: events streamed as updates in order, approvals asked in the editor; its stop reason. */
async function runPrompt(
  session: AgentSession,
  text: string,
  context: { sessionId: string; editor: acp.AgentContext; client: acp.ClientCapabilities },
): Promise<acp.PromptResponse> {
  const { sessionId, editor } = context;
  const mapper = new UpdateMapper(session.root);
  // Updates go out one after another, in the order the events came.
  let sent = Promise.resolve();
  const update = (item: acp.SessionUpdate) => {
    sent = sent.then(() => editor.notify(sdk.methods.client.session.update, { sessionId, update: item }))
      .catch((error) => console.error(`tern: session/update failed: ${error}`));
    return sent;
  };
  const approve = editorGate(session, {
    sessionId,
    mapper,
    update,
    request: async (params) => {
      await sent; // the call's own updates reach the editor before the question about it
      return await editor.request(sdk.methods.client.session.requestPermission, params);
    },
  });
  const result = await session.run(text, {
    approve,
    editor: editorFiles(context),
    onEvent: (event) => mapper.map(event).forEach(update),
  });
  await sent;
  if (result.exitReason === "error") {
    throw sdk.RequestError.internalError(undefined, result.error ?? "the turn failed");
  }
  return { stopReason: stopReason(result.exitReason) };
}

/** The editor's files when the client offers both fs methods; else the disk. */
function editorFiles(
  { sessionId, editor, client }: {
    sessionId: string;
    editor: acp.AgentContext;
    client: acp.ClientCapabilities;
  },
): EditorFiles | undefined {
  if (!client.fs?.readTextFile || !client.fs?.writeTextFile) return undefined;
  return {
    readTextFile: async (path) =>
      (await editor.request(sdk.methods.client.fs.readTextFile, { sessionId, path })).content,
    writeTextFile: async (path, content) => {
      await editor.request(sdk.methods.client.fs.writeTextFile, { sessionId, path, content });
    },
  };
}

/** How a turn's end reads in ACP. */
export function stopReason(reason: ExitReason): acp.StopReason {
  if (reason === "cancelled") return "cancelled";
  if (reason === "max_turns") return "max_turn_requests";
  if (reason === "length" || reason === "token_budget") return "max_tokens";
  return "end_turn";
}

function modeState(mode: ApproveMode): acp.SessionModeState {
  return { currentModeId: mode, availableModes: MODES };
}

/** Runs `task`; what the user must fix (a cwd, a key, a missing session) becomes a clear JSON-RPC error. */
async function asRequestError<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof ProjectRootError) throw sdk.RequestError.invalidParams(undefined, error.message);
    if (!(error instanceof Error)) throw error;
    if (error.name === "SessionError") throw new sdk.RequestError(-32002, error.message);
    if (error.name === "ConfigError") throw new sdk.RequestError(-32000, error.message);
    if (error.name === "UsageError") throw sdk.RequestError.invalidParams(undefined, error.message);
    throw sdk.RequestError.internalError(undefined, error.message);
  }
}
