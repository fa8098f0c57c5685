/**
 * The one face of tern's core. A front end (the REPL, a headless run, an editor or a sub-agent) creates an
 * `AgentSession` and renders its events; it never builds the client, the registry or the conversation, and
 * reads the conversation through the accessors below. Each job is a part in face/ the face delegates to: the
 * conversation held (`ConversationSlot`), prompts (`PromptRunner`), model switches (`ModelSwitch`), the
 * user's actions (`ConversationActions`), all wired in `sessionParts()`.
 */
import type { Config } from "../config/config.ts";
import type { ModelRequest } from "../config/provider_switch.ts";
import type { ApproveMode } from "../config/settings.ts";
import type { ApprovalGate, AskHuman } from "./policy/approval.ts";
import type { Started } from "./conversation_start.ts";
import type { AgentEvent } from "./events.ts";
import {
  type AgentSessionOptions,
  inheritedOptions,
  type PromptOptions,
  type SessionState,
} from "./agent_session_options.ts";
import type { TaskResult } from "./loop/loop.ts";
import type { ProjectMemory } from "./project/memory.ts";
import { PermissionRules } from "./policy/permission_rules.ts";
import type { Entry } from "./log/conversation.ts";
import type { LoadedSession } from "./log/session_file.ts";
import type { ModelInfo } from "./model_setup.ts";
import type { SessionUsage } from "./usage.ts";
import type { Skill } from "./project/skills.ts";
import { Snapshots } from "./log/snapshots.ts";
import type { SummaryResult } from "./log/summarise.ts";
import type { RewindTarget, UndoPlan } from "./log/undo.ts";
import { streamEvents } from "./event_stream.ts";
import type { AgentDefinition } from "./project/agents.ts";
import type { ChildSetup } from "./loop/sub_agents.ts";
import type { PlanUpdate } from "../tools/update_plan.ts";
import type { BackgroundProcesses } from "../tools/shell/background.ts";
import type { UserCommandOptions } from "./user_command.ts";
import type { ToolResult } from "../tools/tool.ts";
import type { SessionHooks } from "./project/hook_context.ts";
import type { DiagnosticsService } from "../tools/lsp/diagnostics.ts";
import type { ContextView } from "./face/conversation_actions.ts";
import { type SessionParts, sessionParts } from "./face/session_parts.ts";
import { CONVERSATION_NOW } from "./_session_internals.ts";

/** One conversation with a model and its tools at a time; see the module comment. */
export class AgentSession {
  /** The approval policy (Shift+Tab in the REPL changes it). */
  mode: ApproveMode;
  readonly root: string;
  readonly rules: PermissionRules;
  readonly usage: SessionUsage;
  /** The processes started with `background: true` (shared with sub-agents; killed by `close()`). */
  readonly background: BackgroundProcesses;
  readonly #options: AgentSessionOptions;
  readonly #snapshots: Snapshots | null;
  readonly #parts: SessionParts;

  private constructor(options: AgentSessionOptions, snapshots: Snapshots | null) {
    this.#options = options;
    this.root = options.config.root;
    this.mode = options.config.approve;
    this.rules = options.rules ?? new PermissionRules();
    this.#snapshots = snapshots;
    this.#parts = sessionParts(options, snapshots, {
      rules: this.rules,
      mode: () => this.mode,
      spawn: (config, setup) => this.#spawnChild(config, setup),
    });
    this.usage = this.#parts.usage;
    this.background = this.#parts.background;
    this.usage.restore(this.#parts.slot.entries);
    this.#parts.switch.began(options.resume);
  }

  /** A session for `options`; throws a ConfigError when the fallback cannot be reached (no key). */
  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const snapshots = options.snapshots ? await Snapshots.open(options.config.root) : null;
    const session = new AgentSession(options, snapshots);
    if (options.fallback) await session.#parts.models.setFallback(options.fallback);
    if (options.resume) await session.#parts.switch.continueResumed();
    session.#parts.hooks.started(options.resume ? "resume" : "startup");
    return session;
  }

  /** The conversation now, for src/agent and its tests (see _session_internals.ts). */
  get [CONVERSATION_NOW](): Started {
    return this.#parts.slot.now;
  }

  /** The session file's id; absent with --no-session. */
  get sessionId(): string | undefined {
    return this.#parts.slot.sessionId;
  }

  /** The session file's path once it exists (it is written from the first entry on). */
  get transcriptPath(): string | undefined {
    return this.#parts.slot.transcriptPath;
  }

  /** The conversation's log so far (read-only). */
  get entries(): readonly Entry[] {
    return this.#parts.slot.entries;
  }

  /** The entries still in the conversation: undone turns and summarised ones left out. */
  liveEntries(): Entry[] {
    return this.#parts.slot.liveEntries();
  }

  /** The tools this conversation's "don't ask again" answers cover. */
  get approvals(): string[] {
    return this.#parts.slot.approvals;
  }

  /** Every tool of the conversation, by name, sorted. */
  toolNames(): string[] {
    return this.#parts.slot.toolNames();
  }

  /** The tools the model is offered now, by name, sorted. */
  offeredToolNames(): string[] {
    return this.#parts.slot.offeredToolNames();
  }

  /** Names the session (`/rename`); throws when it is not saved (--no-session) or the name cannot be written. */
  rename(name: string): void {
    this.#parts.slot.rename(name);
  }

  /** Who answers now. */
  get model(): ModelInfo {
    return this.#parts.models.setup.info;
  }

  /** The memory the current conversation's system prompt carries. */
  get memory(): ProjectMemory | null {
    return this.#parts.slot.memory;
  }

  /** Reads the project's memory file again (`/init` wrote one, say): the next conversation carries it. */
  async reloadMemory(): Promise<void> {
    if (this.#options.reloadMemory) this.#parts.slot.nextMemory = await this.#options.reloadMemory();
  }

  /** The project's skills, listed in the system prompt. */
  get skills(): readonly Skill[] {
    return this.#options.skills ?? [];
  }

  /** The plan the model keeps with update_plan in this conversation, or null. */
  get plan(): PlanUpdate | null {
    return this.#parts.plan.current;
  }

  /** `!command` in the REPL: the user's own command, run as execute_command and logged with its output. */
  userCommand(
    command: string,
    options: Pick<UserCommandOptions, "signal" | "onUpdate">,
  ): Promise<ToolResult> {
    return this.#parts.actions.userCommand(command, options);
  }

  /** The hooks in force (`/hooks` lists them). */
  get hooks(): SessionHooks["hooks"] {
    return this.#parts.hooks.hooks;
  }

  /** Runs the Notification hooks: tern needs the human (`permission_prompt`, `idle_prompt`). */
  async notify(type: string, message: string): Promise<void> {
    await this.#parts.hooks.notify(type, message);
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
    return this.#parts.switch.firstModel;
  }

  /** The session at a glance. */
  state(): SessionState {
    const window = this.#parts.models.setup.info.contextWindow;
    const contextPercent = Math.min(100, Math.round(100 * this.usage.contextTokens / window));
    return {
      ...this.#parts.models.setup.info,
      mode: this.mode,
      sessionId: this.sessionId,
      usage: this.usage,
      contextPercent,
    };
  }

  /** The next request's estimate on the wire in use, where it goes, and what compaction would drop. */
  context(): ContextView {
    return this.#parts.actions.context();
  }

  /** The approval gate for one prompt: the session's policy, rules and remembered answers, asking `ask`. */
  gate(ask?: AskHuman, onRuleSaved?: (rule: string, error?: Error) => void): ApprovalGate {
    return this.#parts.prompts.gate(ask, onRuleSaved);
  }

  /**
   * Runs one user prompt to its end; never throws for model or tool failures (see `runTask`). A prompt
   * over MAX_PROMPT_BYTES ends at once with an error saying what to do instead; nothing is sent or logged.
   */
  run(text: string, options: PromptOptions = {}): Promise<TaskResult> {
    return this.#parts.prompts.run(text, options);
  }

  /** The same prompt as a stream of events; the stream's return value is the task's result. */
  prompt(text: string, options: Omit<PromptOptions, "onEvent"> = {}): AsyncGenerator<AgentEvent, TaskResult> {
    return streamEvents((onEvent) => this.run(text, { ...options, onEvent }));
  }

  /** Cancels the running prompt, if any (the conversation keeps what happened). */
  cancel(): void {
    this.#parts.prompts.cancel();
  }

  /** Ends the session: the running prompt and hooks cancelled, background processes killed, a snapshot finished. */
  async close(): Promise<void> {
    this.cancel();
    this.#parts.closing.abort();
    for (const line of await this.background.killAll()) this.#options.onNotice?.(line);
    await this.#snapshots?.settled();
  }

  /** Moves to another model or provider for the next prompt; logged as a `model_change` entry. */
  switchModel(request: ModelRequest): Promise<ModelInfo> {
    return this.#parts.switch.switchTo(request);
  }

  /** Summarises the older part of the conversation now; null when there is nothing to summarise. */
  compact(focus?: string, signal = new AbortController().signal): Promise<SummaryResult | null> {
    return this.#parts.actions.compact(focus, signal);
  }

  /** What an undo would go back to (the latest turn, or the one whose snapshot entry is `at`), or null. */
  undoPlan(at?: number): Promise<UndoPlan | null> {
    return this.#parts.actions.undoPlan(at);
  }

  /** The turns `/rewind` can go back to, oldest first. */
  rewindTargets(): RewindTarget[] {
    return this.#parts.actions.rewindTargets();
  }

  /** Carries out an undo `plan` on the files, the conversation or both (`keepChangedSince`: spare later edits). */
  undo(
    plan: UndoPlan,
    what: { files: boolean; conversation: boolean; keepChangedSince?: boolean },
  ): Promise<void> {
    return this.#parts.actions.undo(plan, what);
  }

  /** Starts a new conversation (and session file): history, files read and approvals given are forgotten. */
  clear(): void {
    this.#parts.slot.startNew();
    this.#forgetConversation();
    this.#parts.switch.began();
    this.#parts.hooks.started("clear");
  }

  /** Continues a saved session in place of the current conversation, on the model it ended with. */
  async resume(loaded: LoadedSession): Promise<void> {
    this.#parts.slot.resume(loaded);
    this.#forgetConversation();
    this.usage.restore(this.#parts.slot.entries);
    this.#parts.switch.began(loaded);
    await this.#parts.switch.continueResumed();
    this.#parts.hooks.started("resume");
  }

  /** What belonged to the conversation just replaced: its plan and its usage. */
  #forgetConversation(): void {
    this.#parts.plan.clear();
    this.usage.reset();
  }

  /** A sub-agent (built by the task tool): nothing saved, the same rules, the extras the session was given. */
  async #spawnChild(config: Config, child: ChildSetup): Promise<AgentSession> {
    const sameModel = config.model === this.#parts.models.config.model;
    const inherited = inheritedOptions(this.#options, { sameModel, background: this.background });
    return await AgentSession.create({ ...inherited, config, save: false, rules: this.rules, child });
  }
}
