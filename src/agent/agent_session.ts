/**
 * The one face of tern's core. A front end (the REPL, a headless run, later an editor or a sub-agent)
 * creates an `AgentSession` and renders its events; it never builds the client, the registry or the
 * conversation itself. The session owns the model and its client, the conversation with its tools and
 * session file, undo snapshots, the secrets redacted from command output, budgets, the approval policy and
 * permission rules, and what the project supplies (skills, memory, MCP tools).
 */
import type { Config, ModelRequest } from "../config/config.ts";
import { KEY_VARIABLES } from "../config/providers.ts";
import type { ApproveMode } from "../config/settings.ts";
import { McpWatch } from "./mcp_watch.ts";
import { type ApprovalGate, type AskHuman, createApprovalGate } from "./policy/approval.ts";
import { conversationStarter, type Started, type Starter } from "./conversation_start.ts";
import { type ContextPreview, previewContext } from "./loop/context_fit.ts";
import type { AgentEvent } from "./events.ts";
import {
  type AgentSessionOptions,
  inheritedOptions,
  type PromptOptions,
  type SessionState,
} from "./agent_session_options.ts";
import { emptyUsage, runTask, type TaskResult } from "./loop/loop.ts";
import type { ProjectMemory } from "./project/memory.ts";
import { PermissionRules } from "./policy/permission_rules.ts";
import type { LoadedSession } from "./log/session_file.ts";
import type { ModelInfo } from "./model_setup.ts";
import { SessionModels } from "./models.ts";
import { SessionUsage } from "./usage.ts";
import type { Skill } from "./project/skills.ts";
import { Snapshots } from "./log/snapshots.ts";
import { summariseConversation, type SummaryResult } from "./log/summarise.ts";
import {
  applyUndo,
  planUndo,
  type RewindTarget,
  rewindTargets,
  snapshotAfterTask,
  snapshotBeforeTask,
  type UndoPlan,
} from "./log/undo.ts";
import { resumedConfig } from "./resume_model.ts";
import { streamEvents } from "./event_stream.ts";
import type { AgentDefinition } from "./project/agents.ts";
import { PlanKeeper, planModeTask } from "./policy/plan_mode.ts";
import { type ChildSetup, SubAgents } from "./loop/sub_agents.ts";
import type { PlanUpdate } from "../tools/update_plan.ts";
import { BackgroundProcesses } from "../tools/shell/background.ts";
import { runUserCommand, type UserCommandOptions } from "./user_command.ts";
import type { ToolResult } from "../tools/tool.ts";
import { TaskBudget } from "./loop/budget.ts";
import { SessionHooks } from "./project/hook_context.ts";
import { webSearchSetup } from "./web_search_setup.ts";
import type { DiagnosticsService } from "../tools/lsp/diagnostics.ts";

/** A prompt longer than this (in bytes) is refused: a pasted log that size belongs in a file. */
export const MAX_PROMPT_BYTES = 1024 * 1024;

/** One conversation with a model and its tools; see the module comment. */
export class AgentSession {
  /** The approval policy (Shift+Tab in the REPL changes it). */
  mode: ApproveMode;
  readonly root: string;
  readonly rules: PermissionRules;
  readonly usage: SessionUsage;
  /** The processes started with `background: true` (shared with sub-agents; killed by `close()`). */
  readonly background: BackgroundProcesses;
  readonly #hooks: SessionHooks;
  /** Fires when the session closes: hooks still running stop. */
  readonly #closing = new AbortController();
  readonly #options: AgentSessionOptions;
  readonly #starter: Starter;
  readonly #snapshots: Snapshots | null;
  readonly #models: SessionModels;
  #current: Started;
  #firstModel: string;
  #running?: AbortController;
  /** The running prompt's event sink: where sub-agents and the plan report. */
  #emit?: (event: AgentEvent) => void;
  /** The running task's budget: its sub-agents' tokens count into it. */
  #budget?: TaskBudget;
  readonly #plan = new PlanKeeper((event) => this.#emit?.(event));
  readonly #subAgents: SubAgents;
  readonly #mcp?: McpWatch;
  /** The memory new conversations get (read again by `reloadMemory`), and what the current one carries. */
  readonly #memory: { next: ProjectMemory | null; carried: ProjectMemory | null };

  private constructor(options: AgentSessionOptions, snapshots: Snapshots | null) {
    this.#options = options;
    this.root = options.config.root;
    this.mode = options.config.approve;
    this.rules = options.rules ?? new PermissionRules();
    this.#snapshots = snapshots;
    const { env, contextWindow, advise } = options;
    this.#models = new SessionModels(options.config, { env, contextWindow, advise });
    this.usage = new SessionUsage(this.#models.setup.info);
    this.background = options.background ?? new BackgroundProcesses();
    this.#hooks = new SessionHooks(options.hooks ?? [], {
      root: this.root,
      sessionId: () => this.#current?.session?.id,
      transcriptPath: () => this.#current?.session?.path,
      mode: () => this.mode,
      child: options.child !== undefined,
      onNotice: options.onNotice,
      signal: this.#closing.signal,
    });
    if (options.mcpServers) this.#mcp = new McpWatch(options.mcpServers);
    const memory = this.#memory = { next: options.memory ?? null, carried: options.memory ?? null };
    this.#starter = conversationStarter({
      root: this.root,
      shell: { sandbox: options.config.sandbox, secrets: this.#models.secrets, background: this.background },
      web: { allowLocal: options.allowLocalFetch === true, search: webSearchSetup(options) },
      images: () => this.#models.setup.info.images,
      // task and update_plan only in a main session: a child keeps no plan and starts no child (depth 1).
      extraTools: () => [
        ...this.#mcp?.tools(this.#mcpSecrets()) ?? [],
        ...options.extraTools?.() ?? [],
        ...options.child ? [] : [this.#subAgents.tool(), this.#plan.tool()],
      ],
      child: options.child,
      skills: options.skills,
      get memory() { // read at each new conversation: after `reloadMemory`, the new file
        return memory.next;
      },
      meta: () => this.#meta(),
      save: options.save,
      onSaveError: options.onNotice,
    });
    this.#subAgents = new SubAgents({
      root: this.root,
      agents: options.agents ?? [],
      config: () => this.#models.config,
      spawn: (config, setup) => this.#spawnChild(config, setup),
      toolNames: () => this.#current.registry.tools().map((tool) => tool.name),
      mode: () => this.mode,
      rules: this.rules,
      approvals: () => this.#current.conversation.approvals,
      emit: (event) => this.#emit?.(event),
      budget: () => this.#budget,
      isolate: options.isolate,
    });
    this.#current = options.resume ? this.#starter.resume(options.resume) : this.#starter.start();
    this.usage.restore(this.#current.conversation.entries);
    this.#firstModel = this.#answeredFirst(options.resume);
  }

  /** A session for `options`; throws a ConfigError when the fallback cannot be reached (no key). */
  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const snapshots = options.snapshots ? await Snapshots.open(options.config.root) : null;
    const session = new AgentSession(options, snapshots);
    if (options.fallback) await session.#models.setFallback(options.fallback);
    if (options.resume) await session.#continueResumedModel();
    session.#hooks.started(options.resume ? "resume" : "startup");
    return session;
  }

  /** The conversation now, with its tools and session file. */
  get current(): Started {
    return this.#current;
  }

  /** Who answers now. */
  get model(): ModelInfo {
    return this.#models.setup.info;
  }

  /** The memory the current conversation's system prompt carries. */
  get memory(): ProjectMemory | null {
    return this.#memory.carried;
  }

  /** Reads the project's memory file again (`/init` wrote one, say): the next conversation carries it. */
  async reloadMemory(): Promise<void> {
    if (this.#options.reloadMemory) this.#memory.next = await this.#options.reloadMemory();
  }

  /** The project's skills, listed in the system prompt. */
  get skills(): readonly Skill[] {
    return this.#options.skills ?? [];
  }

  /** The plan the model keeps with update_plan in this conversation, or null. */
  get plan(): PlanUpdate | null {
    return this.#plan.current;
  }

  /** `!command` in the REPL: the user's own command, run as execute_command and logged with its output. */
  userCommand(
    command: string,
    options: Pick<UserCommandOptions, "signal" | "onUpdate">,
  ): Promise<ToolResult> {
    const { registry, conversation } = this.#current;
    return runUserCommand(command, { registry, conversation, root: this.root, ...options });
  }

  /** The hooks in force (`/hooks` lists them). */
  get hooks(): SessionHooks["hooks"] {
    return this.#hooks.hooks;
  }

  /** Runs the Notification hooks: tern needs the human (`permission_prompt`, `idle_prompt`). */
  async notify(type: string, message: string): Promise<void> {
    await this.#hooks.notify(type, message);
  }

  /** The language servers checking each file change (`/diagnostics` shows them); absent when off. */
  get diagnostics(): DiagnosticsService | undefined {
    return this.#options.diagnostics;
  }

  /** The named agents the task tool offers. */
  get agents(): readonly AgentDefinition[] {
    return this.#options.agents ?? [];
  }

  /** False when git is missing: undo can rewind the conversation but not restore files. */
  get canRestoreFiles(): boolean {
    return this.#snapshots !== null;
  }

  /** Who answered the conversation's first prompt, e.g. "deepseek-chat via DeepSeek" (`/context` says it). */
  get firstModel(): string {
    return this.#firstModel;
  }

  /** The session at a glance. */
  state(): SessionState {
    const window = this.#models.setup.info.contextWindow;
    const contextPercent = Math.min(100, Math.round(100 * this.usage.contextTokens / window));
    return {
      ...this.#models.setup.info,
      mode: this.mode,
      sessionId: this.#current.session?.id,
      usage: this.usage,
      contextPercent,
    };
  }

  /** The next request's estimate on the wire in use, where it goes, and what compaction would drop. */
  context(): ContextPreview & { window: number; calibrated: boolean; bytesPerToken: number } {
    const { conversation, registry } = this.#current;
    const window = this.#models.setup.info.contextWindow;
    const base = { model: this.#models.setup.info.model, tools: registry.specs() };
    return {
      ...previewContext(conversation, base, { contextWindow: window, gauge: this.#models.gauge }),
      window,
      calibrated: this.#models.gauge.calibrated,
      bytesPerToken: 1 / this.#models.gauge.tokensPerByte,
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
      return notSent(
        `the prompt is ${(bytes / 1048576).toFixed(1)} MB, over the 1 MB cap: save the text in a ` +
          "file in the project and ask about it by name: the model reads it in pages",
      );
    }
    const controller = new AbortController();
    this.#running = controller;
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const onEvent = (event: AgentEvent) => {
      this.usage.handle(event);
      // Logged, so a resumed session starts from its running totals.
      if (event.type === "usage") {
        this.#current.conversation.append({
          kind: "usage",
          usage: event.usage,
          model: this.#models.setup.info.model,
        });
      }
      options.onEvent?.(event);
    };
    this.#emit = onEvent;
    try {
      const prompted = await this.#hooks.beforePrompt(text, { signal, onEvent });
      if (prompted.block !== undefined) return notSent(`the prompt was not sent: ${prompted.block}`);
      this.#joinLateServers(onEvent);
      const { conversation, registry } = this.#current;
      if (this.#snapshots) await snapshotBeforeTask(conversation, this.#snapshots);
      const { maxTurns, tokenBudget, timeLimitMs, requireTools } = this.#models.config;
      const budget = this.#budget = options.budget ?? new TaskBudget({ maxTurns, tokenBudget, timeLimitMs });
      const task = this.mode === "plan" && !this.#options.child ? planModeTask(text) : text;
      const result = await runTask(conversation, task, {
        ...this.#models.loopOptions(),
        registry,
        root: this.root,
        approve: options.approve ?? this.gate(),
        signal,
        onEvent,
        maxTurns,
        tokenBudget,
        timeLimitMs,
        budget,
        requireTools,
        editor: options.editor,
        diagnostics: this.#options.diagnostics,
        images: options.images,
        hooks: this.#hooks.hooks,
        context: prompted.context,
      });
      // What the turn left (taken in the background): undo tells the user's later changes from the turn's.
      if (this.#snapshots) snapshotAfterTask(conversation, this.#snapshots);
      return result;
    } finally {
      if (this.#running === controller) {
        [this.#running, this.#emit, this.#budget] = [undefined, undefined, undefined];
      }
    }
  }

  /** The same prompt as a stream of events; the stream's return value is the task's result. */
  prompt(text: string, options: Omit<PromptOptions, "onEvent"> = {}): AsyncGenerator<AgentEvent, TaskResult> {
    return streamEvents((onEvent) => this.run(text, { ...options, onEvent }));
  }

  /** Cancels the running prompt, if any (the conversation keeps what happened). */
  cancel(): void {
    this.#running?.abort();
  }

  /** Ends the session: the running prompt and hooks are cancelled, every background process is killed. */
  async close(): Promise<void> {
    this.cancel();
    this.#closing.abort();
    for (const line of await this.background.killAll()) this.#options.onNotice?.(line);
  }

  /** Moves to another model or provider for the next prompt; logged as a `model_change` entry. */
  async switchModel(request: ModelRequest): Promise<ModelInfo> {
    this.#adopt(await this.#models.resolve(request));
    return this.#models.setup.info;
  }

  /** Summarises the older part of the conversation now; null when there is nothing to summarise. */
  async compact(focus?: string, signal = new AbortController().signal): Promise<SummaryResult | null> {
    return await summariseConversation(this.#current.conversation, {
      client: this.#models.setup.client,
      model: this.#models.setup.info.model,
      signal,
      contextWindow: this.#models.setup.info.contextWindow,
      gauge: this.#models.gauge,
      tools: this.#current.registry.specs(),
      focus,
      keepFraction: 0, // on demand: keep only the latest step verbatim
    });
  }

  /**
   * What an undo would go back to (the latest turn, or the turn whose snapshot entry is `at`: `/rewind`), or
   * null when there is nothing to undo.
   */
  async undoPlan(at?: number): Promise<UndoPlan | null> {
    return await planUndo(this.#current.conversation, this.#snapshots, at);
  }

  /** The turns `/rewind` can go back to, oldest first. */
  rewindTargets(): RewindTarget[] {
    return rewindTargets(this.#current.conversation);
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
    this.#replace(this.#starter.start());
    this.#firstModel = this.#answeredFirst();
    this.#hooks.started("clear");
    return this.#current;
  }

  /** Continues a saved session in place of the current conversation, on the model it ended with. */
  async resume(loaded: LoadedSession): Promise<Started> {
    this.#replace(this.#starter.resume(loaded));
    this.usage.restore(this.#current.conversation.entries);
    this.#firstModel = this.#answeredFirst(loaded);
    await this.#continueResumedModel();
    this.#hooks.started("resume");
    return this.#current;
  }

  #replace(next: Started): Started {
    this.#memory.carried = this.#memory.next;
    this.#current.session?.detach();
    this.#current = next;
    this.#plan.clear();
    this.usage.reset();
    return next;
  }

  /** A sub-agent (built by the task tool): nothing saved, the same rules, the extras the session was given. */
  async #spawnChild(config: Config, child: ChildSetup): Promise<AgentSession> {
    const sameModel = config.model === this.#models.config.model;
    const inherited = inheritedOptions(this.#options, { sameModel, background: this.background });
    return await AgentSession.create({ ...inherited, config, save: false, rules: this.rules, child });
  }

  #answeredFirst(loaded?: LoadedSession): string {
    const { model, provider } = loaded?.header ??
      { model: this.#models.setup.info.model, provider: this.#models.setup.info.label };
    return `${model} via ${provider}`;
  }

  /** Makes `config` the model from now on: client, window, price, secrets, tools, and the log entry. */
  #adopt(config: Config): void {
    const readsImages = this.#models.setup.info.images;
    const newKey = this.#models.use(config);
    this.usage.info = this.#models.setup.info;
    // The tools hold their secrets (and read_file its description) from when they were built: rebuilt, so
    // command output hides the new key and read_file says whether it returns images.
    if (newKey || readsImages !== this.#models.setup.info.images) {
      this.#current.registry = this.#starter.tools(this.#current.conversation.files);
    }
    const { provider, model, label: endpoint, api } = this.#models.setup.info;
    this.#current.conversation.append({ kind: "model_change", provider, model, endpoint, api });
  }

  /** After a resume: back on the model the session ended with, when it can be reached (else said). */
  async #continueResumedModel(): Promise<void> {
    const { keepStartModel, onNotice } = this.#options;
    const next = await resumedConfig(this.#current.conversation.entries, this.#models, {
      keepStartModel,
      onNotice,
    });
    if (next) this.#adopt(next);
  }

  /** MCP servers ready since the tools were built join now; each change is one notice. */
  #joinLateServers(onEvent: (event: AgentEvent) => void): void {
    if (this.#options.child) return; // a child's tools are built when it starts; its parent says the rest
    const changes = this.#mcp?.changes();
    if (changes?.rebuild) this.#current.registry = this.#starter.tools(this.#current.conversation.files);
    for (const message of changes?.lines ?? []) onEvent({ type: "notice", level: "info", message });
  }

  /** What MCP results never show: the keys in use and every provider key variable's value. */
  #mcpSecrets(): string[] {
    const values = KEY_VARIABLES.map((name) => this.#options.env[name] ?? "").filter((value) => value !== "");
    return [...this.#models.secrets, ...values];
  }

  #meta() {
    const { provider, model, api } = this.#models.setup.info;
    const frontEnd = this.#options.frontEnd ? { frontEnd: this.#options.frontEnd } : {};
    return { tern: this.#options.version, provider, model, api, ...frontEnd };
  }
}

/** The result of a prompt that was not sent (too large, or blocked by a hook): nothing sent or logged. */
function notSent(error: string): TaskResult {
  return {
    text: "",
    exitReason: "error",
    partial: false,
    turns: 0,
    toolCalls: 0,
    usage: emptyUsage(),
    error,
  };
}
