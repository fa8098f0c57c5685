/**
 * One user prompt of an `AgentSession`, run to its end: the size cap, the UserPromptSubmit hooks, MCP servers
 * that joined late, undo snapshots around the turn, the task budget, and the loop itself.
 */
import type { ApproveMode } from "../../config/settings.ts";
import type { DiagnosticsService } from "../../tools/lsp/diagnostics.ts";
import type { PromptOptions } from "../agent_session_options.ts";
import type { AgentEvent } from "../events.ts";
import type { Snapshots } from "../log/snapshots.ts";
import { snapshotAfterTask, snapshotBeforeTask } from "../log/undo.ts";
import { TaskBudget } from "../loop/budget.ts";
import { emptyUsage, runTask, type TaskResult } from "../loop/loop.ts";
import type { McpWatch } from "../mcp_watch.ts";
import type { SessionModels } from "../models.ts";
import { planModeTask } from "../policy/plan_mode.ts";
import { type ApprovalGate, type AskHuman, createApprovalGate } from "../policy/approval.ts";
import type { PermissionRules } from "../policy/permission_rules.ts";
import type { SessionHooks } from "../project/hook_context.ts";
import type { SessionUsage } from "../usage.ts";
import type { ConversationSlot } from "./conversation_slot.ts";

/** A prompt longer than this (in bytes) is refused: a pasted log that size belongs in a file. */
export const MAX_PROMPT_BYTES = 1024 * 1024;

/** What a prompt runs with: the session's parts, read at each prompt. */
export interface PromptParts {
  root: string;
  slot: ConversationSlot;
  models: SessionModels;
  usage: SessionUsage;
  hooks: SessionHooks;
  snapshots: Snapshots | null;
  mcp?: McpWatch;
  diagnostics?: DiagnosticsService;
  /** A sub-agent's session: no plan mode, and its tools are not rebuilt for late MCP servers. */
  child: boolean;
  mode: () => ApproveMode;
  rules: PermissionRules;
  /** Keeps an "always allow" rule in the project's settings. */
  saveRule?: (rule: string) => Promise<void>;
}

/**
 * Runs prompts one at a time, and knows the running one: its cancel switch, its event sink, its budget; and
 * gives the approval gate each prompt asks through.
 */
export class PromptRunner {
  readonly #parts: PromptParts;
  #running?: AbortController;
  #emit?: (event: AgentEvent) => void;
  #budget?: TaskBudget;

  constructor(parts: PromptParts) {
    this.#parts = parts;
  }

  /** The running task's budget: its sub-agents' tokens count into it. */
  get budget(): TaskBudget | undefined {
    return this.#budget;
  }

  /** Sends `event` to the running prompt's listener (sub-agents and the plan report there); else dropped. */
  emit(event: AgentEvent): void {
    this.#emit?.(event);
  }

  /** The approval gate for one prompt: the session's policy, rules and remembered answers, asking `ask`. */
  gate(ask?: AskHuman, onRuleSaved?: (rule: string, error?: Error) => void): ApprovalGate {
    return createApprovalGate(this.#parts.mode(), ask, {
      session: this.#parts.slot.now.conversation.approvals,
      rules: this.#parts.rules,
      saveRule: (rule) => {
        this.#parts.saveRule?.(rule).then(
          () => onRuleSaved?.(rule),
          (error) => onRuleSaved?.(rule, error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
  }

  /** Cancels the running prompt, if any (the conversation keeps what happened). */
  cancel(): void {
    this.#running?.abort();
  }

  /** One prompt to its end; never throws for model or tool failures (see `runTask`). */
  async run(text: string, options: PromptOptions): Promise<TaskResult> {
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
    const onEvent = this.#emit = this.#listener(options.onEvent);
    try {
      const prompted = await this.#parts.hooks.beforePrompt(text, { signal, onEvent });
      if (prompted.block !== undefined) return notSent(`the prompt was not sent: ${prompted.block}`);
      this.#joinLateServers(onEvent);
      return await this.#task(text, { ...options, signal, onEvent }, prompted.context);
    } finally {
      if (this.#running === controller) {
        [this.#running, this.#emit, this.#budget] = [undefined, undefined, undefined];
      }
    }
  }

  /** Counts usage and logs it (so a resumed session starts from its running totals), then tells `onEvent`. */
  #listener(onEvent: PromptOptions["onEvent"]): (event: AgentEvent) => void {
    const { usage, slot, models } = this.#parts;
    return (event) => {
      usage.handle(event);
      if (event.type === "usage") {
        slot.now.conversation.append({ kind: "usage", usage: event.usage, model: models.setup.info.model });
      }
      onEvent?.(event);
    };
  }

  /** The task itself, between the undo snapshots. */
  async #task(
    text: string,
    options: PromptOptions & { signal: AbortSignal; onEvent: (event: AgentEvent) => void },
    context: string | undefined,
  ): Promise<TaskResult> {
    const { slot, models, snapshots } = this.#parts;
    const { conversation, registry } = slot.now;
    if (snapshots) await snapshotBeforeTask(conversation, snapshots);
    const { maxTurns, tokenBudget, timeLimitMs, requireTools } = models.config;
    const budget = this.#budget = options.budget ?? new TaskBudget({ maxTurns, tokenBudget, timeLimitMs });
    const task = this.#parts.mode() === "plan" && !this.#parts.child ? planModeTask(text) : text;
    const result = await runTask(conversation, task, {
      ...models.loopOptions(),
      registry,
      root: this.#parts.root,
      approve: options.approve ?? this.gate(),
      signal: options.signal,
      onEvent: options.onEvent,
      maxTurns,
      tokenBudget,
      timeLimitMs,
      budget,
      requireTools,
      editor: options.editor,
      diagnostics: this.#parts.diagnostics,
      images: options.images,
      hooks: this.#parts.hooks.hooks,
      context,
    });
    // What the turn left (taken in the background): undo tells the user's later changes from the turn's.
    if (snapshots) snapshotAfterTask(conversation, snapshots);
    return result;
  }

  /** MCP servers ready since the tools were built join now; each change is one notice. */
  #joinLateServers(onEvent: (event: AgentEvent) => void): void {
    if (this.#parts.child) return; // a child's tools are built when it starts; its parent says the rest
    const changes = this.#parts.mcp?.changes();
    if (changes?.rebuild) this.#parts.slot.rebuildTools();
    for (const message of changes?.lines ?? []) onEvent({ type: "notice", level: "info", message });
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
