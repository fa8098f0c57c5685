/**
 * What the user does to an `AgentSession`'s conversation between prompts: `/compact`, `/undo` and `/rewind`,
 * `!command`, and the `/context` preview of the next request.
 */
import type { ToolResult } from "../../tools/tool.ts";
import { summariseConversation, type SummaryResult } from "../log/summarise.ts";
import type { Snapshots } from "../log/snapshots.ts";
import { applyUndo, planUndo, type RewindTarget, rewindTargets, type UndoPlan } from "../log/undo.ts";
import { type ContextPreview, previewContext } from "../loop/context_preview.ts";
import type { SessionModels } from "../models.ts";
import { runUserCommand, type UserCommandOptions } from "../user_command.ts";
import type { ConversationSlot } from "./conversation_slot.ts";

/** `/context`'s view: the preview, the window, and how the estimate counts. */
export type ContextView = ContextPreview & { window: number; calibrated: boolean; bytesPerToken: number };

/** The user's actions on the conversation in `slot`, with the session's model and undo snapshots. */
export class ConversationActions {
  readonly #root: string;
  readonly #slot: ConversationSlot;
  readonly #models: SessionModels;
  readonly #snapshots: Snapshots | null;

  constructor(
    root: string,
    parts: { slot: ConversationSlot; models: SessionModels; snapshots: Snapshots | null },
  ) {
    this.#root = root;
    [this.#slot, this.#models, this.#snapshots] = [parts.slot, parts.models, parts.snapshots];
  }

  /** `!command`: the user's own command, run as execute_command and logged with its output. */
  userCommand(
    command: string,
    options: Pick<UserCommandOptions, "signal" | "onUpdate">,
  ): Promise<ToolResult> {
    const { registry, conversation } = this.#slot.now;
    return runUserCommand(command, { registry, conversation, root: this.#root, ...options });
  }

  /** The next request's estimate on the wire in use, where it goes, and what compaction would drop. */
  context(): ContextView {
    const { conversation, registry } = this.#slot.now;
    const { info } = this.#models.setup;
    const gauge = this.#models.gauge;
    const base = { model: info.model, tools: registry.specs() };
    return {
      ...previewContext(conversation, base, { contextWindow: info.contextWindow, gauge }),
      window: info.contextWindow,
      calibrated: gauge.calibrated,
      bytesPerToken: 1 / gauge.tokensPerByte,
    };
  }

  /** Summarises the older part of the conversation now; null when there is nothing to summarise. */
  async compact(focus: string | undefined, signal: AbortSignal): Promise<SummaryResult | null> {
    const { conversation, registry } = this.#slot.now;
    return await summariseConversation(conversation, {
      client: this.#models.setup.client,
      model: this.#models.setup.info.model,
      signal,
      contextWindow: this.#models.setup.info.contextWindow,
      gauge: this.#models.gauge,
      tools: registry.specs(),
      focus,
      keepFraction: 0, // on demand: keep only the latest step verbatim
    });
  }

  /** What an undo would go back to (the latest turn, or the one whose snapshot entry is `at`), or null. */
  async undoPlan(at?: number): Promise<UndoPlan | null> {
    return await planUndo(this.#slot.now.conversation, this.#snapshots, at);
  }

  /** The turns `/rewind` can go back to, oldest first. */
  rewindTargets(): RewindTarget[] {
    return rewindTargets(this.#slot.now.conversation);
  }

  /** Carries out an undo `plan` on the files, the conversation, or both. */
  async undo(
    plan: UndoPlan,
    what: { files: boolean; conversation: boolean; keepChangedSince?: boolean },
  ): Promise<void> {
    await applyUndo(this.#slot.now.conversation, this.#snapshots, plan, what);
  }
}
