/**
 * The one face of tern's core. A front end (the REPL, a headless run, later an editor or a sub-agent)
 * creates an `AgentSession` and renders its events; it never builds the client, the registry or the
 * conversation itself. The session owns the model and its client, the conversation with its tools and
 * session file, undo snapshots, the secrets redacted from command output, budgets, the approval policy and
 * permission rules, and what the project supplies (skills, memory, MCP tools).
 */
import { type Config, ConfigError, type ModelRequest, switchProvider } from "../config/config.ts";
import type { ApproveMode } from "../config/settings.ts";
import type { CallContext } from "../llm/retry.ts";
import type { Tool } from "../tools/tool.ts";
import { type ApprovalGate, type AskHuman, createApprovalGate } from "./approval.ts";
import { conversationStarter, type Started, type Starter } from "./conversation_start.ts";
import type { AgentEvent } from "./events.ts";
import { emptyUsage, runTask, type TaskResult } from "./loop.ts";
import type { ProjectMemory } from "./memory.ts";
import { PermissionRules } from "./permission_rules.ts";
import type { LoadedSession } from "./session.ts";
import { type ModelInfo, type ModelSetup, modelSetup } from "./session_model.ts";
import { SessionUsage } from "./session_usage.ts";
import type { Skill } from "./skills.ts";
import { Snapshots } from "./snapshots.ts";
import { summariseConversation, type SummaryResult } from "./summarise.ts";
import { applyUndo, planUndo, snapshotAfterTask, snapshotBeforeTask, type UndoPlan } from "./undo.ts";
import { resumedModel } from "./session_resume.ts";

/** A prompt longer than this (in bytes) is refused: a pasted log that size belongs in a file. */
export const MAX_PROMPT_BYTES = 1024 * 1024;

/** What a session is created with. */
export interface AgentSessionOptions {
  /** The model, endpoint and key chosen at start, and the run settings (budgets, approval, sandbox). */
  config: Config;
  /** tern's version, written in the session file's header. */
  version: string;
  /** The real environment: where a switch to another provider finds that provider's key. */
  env: Record<string, string | undefined>;
  /** `--context-window`: wins over the model's known window. */
  contextWindow?: number;
  /** `--fallback`: where a call goes once retries are exhausted on 429/5xx; resolved like a switch. */
  fallback?: ModelRequest;
  /** False with --no-session. */
  save: boolean;
  /** Take a snapshot before each prompt, so `undo()` can restore the files (the REPL). */
  snapshots?: boolean;
  skills?: readonly Skill[];
  memory?: ProjectMemory | null;
  /** MCP tools, asked for at each new conversation: a server that became ready later joins. */
  mcpTools?: () => Tool[];
  /** Local addresses for web_fetch (`--allow-local-fetch`). */
  allowLocalFetch?: boolean;
  /** The project's permission rules; "always allow" answers add to them and go to `saveRule`. */
  rules?: PermissionRules;
  saveRule?: (rule: string) => Promise<void>;
  /** A saved session to continue (`-c`, `-r`). */
  resume?: LoadedSession;
  /** The command line named the model or endpoint: a resumed session moves to it, not to the one it ended on. */
  keepStartModel?: boolean;
  /** The front end's words for a failed model call (which flag or variable fixes it). */
  advise?: CallContext["advise"];
  /** Told of what the front end should show once: a session file that cannot be written, a model kept. */
  onNotice?: (message: string) => void;
}

/** What a prompt needs from its front end. */
export interface PromptOptions {
  onEvent?: (event: AgentEvent) => void;
  /** Cancels this prompt (as `cancel()` does). */
  signal?: AbortSignal;
  /** Decides calls that need a yes; default: the session's policy with nobody to ask (refused). */
  approve?: ApprovalGate;
}

/** The session at a glance, for status lines and `state` requests. */
export interface SessionState extends ModelInfo {
  mode: ApproveMode;
  sessionId?: string;
  usage: SessionUsage;
  /** Share of the context window the next request starts from, 0-100. */
  contextPercent: number;
}

/** One conversation with a model and its tools; see the module comment. */
export class AgentSession {
  /** The approval policy (Shift+Tab in the REPL changes it). */
  mode: ApproveMode;
  readonly root: string;
  readonly rules: PermissionRules;
  readonly usage: SessionUsage;
  readonly #options: AgentSessionOptions;
  readonly #starter: Starter;
  readonly #secrets: string[];
  readonly #snapshots: Snapshots | null;
  #config: Config;
  #model: ModelSetup;
  #fallback?: { setup: ModelSetup; label: string };
  #current: Started;
  #running?: AbortController;

  private constructor(options: AgentSessionOptions, snapshots: Snapshots | null) {
    this.#options = options;
    this.#config = options.config;
    this.root = options.config.root;
    this.mode = options.config.approve;
    this.rules = options.rules ?? new PermissionRules();
    this.#snapshots = snapshots;
    this.#model = this.#setup(options.config);
    this.#secrets = options.config.apiKey ? [options.config.apiKey] : [];
    this.usage = new SessionUsage(this.#model.info);
    this.#starter = conversationStarter({
      root: this.root,
      shell: { sandbox: options.config.sandbox, secrets: this.#secrets },
      web: { allowLocal: options.allowLocalFetch === true },
      extraTools: options.mcpTools,
      skills: options.skills,
      memory: options.memory ?? null,
      meta: () => this.#meta(),
      save: options.save,
      onSaveError: options.onNotice,
    });
    this.#current = options.resume ? this.#starter.resume(options.resume) : this.#starter.start();
  }

  /** A session for `options`; throws a ConfigError when the fallback cannot be reached (no key). */
  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const snapshots = options.snapshots ? await Snapshots.open(options.config.root) : null;
    const session = new AgentSession(options, snapshots);
    if (options.fallback) await session.#resolveFallback(options.fallback);
    if (options.resume) await session.#continueResumedModel();
    return session;
  }

  /** The conversation now, with its tools and session file. */
  get current(): Started {
    return this.#current;
  }

  /** Who answers now. */
  get model(): ModelInfo {
    return this.#model.info;
  }

  /** The memory the system prompt carries. */
  get memory(): ProjectMemory | null {
    return this.#options.memory ?? null;
  }

  /** The project's skills, listed in the system prompt. */
  get skills(): readonly Skill[] {
    return this.#options.skills ?? [];
  }

  /** False when git is missing: undo can rewind the conversation but not restore files. */
  get canRestoreFiles(): boolean {
    return this.#snapshots !== null;
  }

  /** The session at a glance. */
  state(): SessionState {
    const window = this.#model.info.contextWindow;
    const contextPercent = Math.min(100, Math.round(100 * this.usage.contextTokens / window));
    return {
      ...this.#model.info,
      mode: this.mode,
      sessionId: this.#current.session?.id,
      usage: this.usage,
      contextPercent,
    };
  }

  /** The approval gate for one prompt: the session's policy, rules and remembered answers, asking `ask`. */
  gate(ask?: AskHuman, onRuleSaved?: (rule: string, error?: Error) => void): ApprovalGate {
    return createApprovalGate(this.mode, ask, {
      session: this.#current.conversation.approvals,
      rules: this.rules,
      saveRule: (rule) => {
        this.#options.saveRule?.(rule).then(
          () => onRuleSaved?.(rule),
          (error) => onRuleSaved?.(rule, error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
  }

  /**
   * Runs one user prompt to its end; never throws for model or tool failures (see `runTask`). A prompt
   * over MAX_PROMPT_BYTES ends at once with an error saying what to do instead; nothing is sent or logged.
   */
  async run(text: string, options: PromptOptions = {}): Promise<TaskResult> {
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > MAX_PROMPT_BYTES) {
      const error =
        `the prompt is ${(bytes / 1048576).toFixed(1)} MB, over the 1 MB cap: save the text in a ` +
        "file in the project and ask about it by name: the model reads it in pages";
      const result = { text: "", partial: false, turns: 0, toolCalls: 0, usage: emptyUsage(), error };
      return { ...result, exitReason: "error" };
    }
    const controller = new AbortController();
    this.#running = controller;
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const onEvent = (event: AgentEvent) => {
      this.usage.handle(event);
      options.onEvent?.(event);
    };
    try {
      const { conversation, registry } = this.#current;
      if (this.#snapshots) await snapshotBeforeTask(conversation, this.#snapshots);
      const { maxTurns, tokenBudget, timeLimitMs, requireTools } = this.#config;
      const result = await runTask(conversation, text, {
        client: this.#model.client,
        model: this.#model.info.model,
        contextWindow: this.#model.info.contextWindow,
        provider: this.#model.provider,
        fallback: this.#fallback &&
          {
            client: this.#fallback.setup.client,
            model: this.#fallback.setup.info.model,
            label: this.#fallback.label,
          },
        registry,
        root: this.root,
        approve: options.approve ?? this.gate(),
        signal,
        onEvent,
        maxTurns,
        tokenBudget,
        timeLimitMs,
        requireTools,
      });
      // What the turn left (taken in the background): undo tells the user's later changes from the turn's.
      if (this.#snapshots) snapshotAfterTask(conversation, this.#snapshots);
      return result;
    } finally {
      if (this.#running === controller) this.#running = undefined;
    }
  }

  /** The same prompt as a stream of events; the stream's return value is the task's result. */
  async *prompt(
    text: string,
    options: Omit<PromptOptions, "onEvent"> = {},
  ): AsyncGenerator<AgentEvent, TaskResult> {
    const queue: AgentEvent[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const running = this.run(text, { ...options, onEvent: (event) => (queue.push(event), wake?.()) })
      .finally(() => (done = true, wake?.()));
    while (true) {
      while (queue.length > 0) yield queue.shift()!;
      if (done) return await running;
      await new Promise<void>((resolve) => wake = resolve);
    }
  }

  /** Cancels the running prompt, if any (the conversation keeps what happened). */
  cancel(): void {
    this.#running?.abort();
  }

  /** Moves to another model or provider for the next prompt; logged as a `model_change` entry. */
  async switchModel(request: ModelRequest): Promise<ModelInfo> {
    const next = await switchProvider(this.#config, request, this.#options.env, this.#options.config);
    this.#adopt(next);
    return this.#model.info;
  }

  /** Summarises the older part of the conversation now; null when there is nothing to summarise. */
  async compact(focus?: string, signal = new AbortController().signal): Promise<SummaryResult | null> {
    return await summariseConversation(this.#current.conversation, {
      client: this.#model.client,
      model: this.#model.info.model,
      signal,
      contextWindow: this.#model.info.contextWindow,
      focus,
      keepFraction: 0, // on demand: keep only the latest step verbatim
    });
  }

  /** What an undo would go back to, or null when there is nothing to undo. */
  async undoPlan(): Promise<UndoPlan | null> {
    return await planUndo(this.#current.conversation, this.#snapshots);
  }

  /**
   * Carries out an undo `plan`: the files, the conversation, or both; `keepChangedSince` leaves the files
   * that changed after that turn as they are now.
   */
  async undo(
    plan: UndoPlan,
    what: { files: boolean; conversation: boolean; keepChangedSince?: boolean },
  ): Promise<void> {
    await applyUndo(this.#current.conversation, this.#snapshots, plan, what);
  }

  /** Starts a new conversation (and session file): history, files read and approvals given are forgotten. */
  clear(): Started {
    return this.#replace(this.#starter.start());
  }

  /** Continues a saved session in place of the current conversation, on the model it ended with. */
  async resume(loaded: LoadedSession): Promise<Started> {
    this.#replace(this.#starter.resume(loaded));
    await this.#continueResumedModel();
    return this.#current;
  }

  #replace(next: Started): Started {
    this.#current.session?.detach();
    this.#current = next;
    this.usage.reset();
    return next;
  }

  #setup(config: Config): ModelSetup {
    return modelSetup(config, { contextWindow: this.#options.contextWindow, advise: this.#options.advise });
  }

  /** Makes `config` the model from now on: client, window, price, secrets, tools, and the log entry. */
  #adopt(config: Config): void {
    this.#config = config;
    this.#model = this.#setup(config);
    this.usage.info = this.#model.info;
    if (config.apiKey && !this.#secrets.includes(config.apiKey)) {
      this.#secrets.push(config.apiKey);
      // The tools hold their secrets from when they were built: rebuilt, so command output hides the new key.
      this.#current.registry = this.#starter.tools(this.#current.conversation.files);
    }
    const { provider, model, label: endpoint, api } = this.#model.info;
    this.#current.conversation.append({ kind: "model_change", provider, model, endpoint, api });
  }

  async #resolveFallback(request: ModelRequest): Promise<void> {
    try {
      const target = await switchProvider(this.#config, request, this.#options.env, this.#options.config);
      this.#fallback = { setup: this.#setup(target), label: `${target.provider}/${target.model}` };
      if (target.apiKey && !this.#secrets.includes(target.apiKey)) this.#secrets.push(target.apiKey);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(`--fallback: ${error.message}`);
      throw error;
    }
  }

  /** After a resume: back on the model the session ended with, when it can be reached (else said). */
  async #continueResumedModel(): Promise<void> {
    const wanted = resumedModel(this.#current.conversation.entries, this.#model.info);
    if (wanted === null) return;
    const stay = (why: string) =>
      this.#options.onNotice?.(
        `the session ended on ${wanted.describe}; continuing on ${this.#model.info.model}: ${why}`,
      );
    if (this.#options.keepStartModel) return this.#adopt(this.#config); // the command line chose the model
    if (!wanted.request) return stay(wanted.why ?? "");
    try {
      this.#adopt(
        await switchProvider(this.#config, wanted.request, this.#options.env, this.#options.config),
      );
    } catch (error) {
      stay(error instanceof Error ? error.message : String(error));
    }
  }

  #meta() {
    const { provider, model, api } = this.#model.info;
    return { tern: this.#options.version, provider, model, api };
  }
}
