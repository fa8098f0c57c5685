/**
 * Moving an `AgentSession` to another model: `/model`, and a resumed conversation going back to the model it
 * ended on. The switch reaches the client, the window, the price, the secrets, the tools and the log.
 */
import type { Config } from "../../config/config.ts";
import type { ModelRequest } from "../../config/provider_switch.ts";
import type { LoadedSession } from "../log/session_file.ts";
import type { ModelInfo } from "../model_setup.ts";
import type { SessionModels } from "../models.ts";
import { resumedConfig } from "../resume_model.ts";
import type { SessionUsage } from "../usage.ts";
import type { ConversationSlot } from "./conversation_slot.ts";

/** What a resumed conversation's model choice listens to. */
export interface ResumeChoices {
  /** The command line named a model: keep it (logged as a change). */
  keepStartModel?: boolean;
  /** Told why the model the session ended on cannot be used. */
  onNotice?: (message: string) => void;
}

/** The model of one session over its conversations, and who answered each one first. */
export class ModelSwitch {
  readonly #models: SessionModels;
  readonly #usage: SessionUsage;
  readonly #slot: ConversationSlot;
  readonly #choices: ResumeChoices;
  #firstModel = "";

  constructor(models: SessionModels, usage: SessionUsage, slot: ConversationSlot, choices: ResumeChoices) {
    [this.#models, this.#usage, this.#slot, this.#choices] = [models, usage, slot, choices];
  }

  /** Who answered the conversation's first prompt, e.g. "deepseek-chat via DeepSeek". */
  get firstModel(): string {
    return this.#firstModel;
  }

  /** A conversation begins (`loaded`: a saved one, which names who answered it first). */
  began(loaded?: LoadedSession): void {
    const { model, provider } = loaded?.header ??
      { model: this.#models.setup.info.model, provider: this.#models.setup.info.label };
    this.#firstModel = `${model} via ${provider}`;
  }

  /** Moves to another model or provider for the next prompt; logged as a `model_change` entry. */
  async switchTo(request: ModelRequest): Promise<ModelInfo> {
    this.#adopt(await this.#models.resolve(request));
    return this.#models.setup.info;
  }

  /** After a resume: back on the model the session ended with, when it can be reached (else said). */
  async continueResumed(): Promise<void> {
    const { keepStartModel, onNotice } = this.#choices;
    const next = await resumedConfig(this.#slot.entries, this.#models, { keepStartModel, onNotice });
    if (next) this.#adopt(next);
  }

  /** Makes `config` the model from now on: client, window, price, secrets, tools, and the log entry. */
  #adopt(config: Config): void {
    const readsImages = this.#models.setup.info.images;
    const newKey = this.#models.use(config);
    this.#usage.info = this.#models.setup.info;
    // The tools hold their secrets (and read_file its description) from when they were built: rebuilt, so
    // command output hides the new key and read_file says whether it returns images.
    if (newKey || readsImages !== this.#models.setup.info.images) this.#slot.rebuildTools();
    const { provider, model, label: endpoint, api } = this.#models.setup.info;
    this.#slot.now.conversation.append({ kind: "model_change", provider, model, endpoint, api });
  }
}
