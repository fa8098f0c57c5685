/**
 * A session's hooks as the session uses them: SessionStart runs when a conversation starts (its context
 * waits for the first prompt), UserPromptSubmit before each prompt; the tool and Stop events run in the loop.
 * A sub-agent's session runs only the tool events.
 */
import type { HookConfig } from "../../config/hook_settings.ts";
import type { AgentEvent } from "../events.ts";
import { type HookContext, Hooks, type HookVerdict } from "./hooks.ts";

/** How a conversation started, as SessionStart's `source` says it. */
export type StartSource = "startup" | "resume" | "clear";

/** What the session's hooks are built with. */
export interface SessionHooksOptions {
  root: string;
  sessionId(): string | undefined;
  /** The session file's path, once there is one. */
  transcriptPath?(): string | undefined;
  /** The approval mode now. */
  mode?(): string;
  /** A sub-agent's session: only PreToolUse and PostToolUse run. */
  child: boolean;
  /** Where warnings go when no prompt is running (SessionStart at launch). */
  onNotice?: (message: string) => void;
  /** Ends hooks still running when the session closes. */
  signal: AbortSignal;
}

/** The hooks of one session, with SessionStart's context until a prompt takes it. */
export class SessionHooks {
  readonly hooks: Hooks;
  readonly #options: SessionHooksOptions;
  #starting?: Promise<string | undefined>;

  constructor(configs: readonly HookConfig[], options: SessionHooksOptions) {
    const { root, sessionId, transcriptPath, mode } = options;
    const hooks = new Hooks(configs, { root, sessionId, transcriptPath, mode });
    this.hooks = options.child ? hooks.forChild() : hooks;
    this.#options = options;
  }

  /** Runs the SessionStart hooks now (in the background: the next prompt waits for them). */
  started(source: StartSource): void {
    const warn = (message: string) => this.#options.onNotice?.(message);
    const starting = this.hooks.sessionStart(source, { signal: this.#options.signal, warn });
    this.#starting = starting.catch((error) => {
      warn(`SessionStart hooks failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
  }

  /** Runs the Notification hooks for `type` (see Hooks.notification); a failure is a warning. */
  async notify(type: string, message: string): Promise<void> {
    const warn = (text: string) => this.#options.onNotice?.(text);
    await this.hooks.notification(type, message, { signal: this.#options.signal, warn }).catch((error) =>
      warn(`Notification hooks failed: ${error instanceof Error ? error.message : String(error)}`)
    );
  }

  /** Before a prompt: SessionStart's context (once) and UserPromptSubmit's, or the block that stops it. */
  async beforePrompt(
    text: string,
    run: { signal: AbortSignal; onEvent: (event: AgentEvent) => void },
  ): Promise<HookVerdict> {
    const ctx: HookContext = {
      signal: run.signal,
      warn: (message) => run.onEvent({ type: "notice", level: "warn", message }),
    };
    const started = await this.#starting;
    const submitted = await this.hooks.userPromptSubmit(text, ctx);
    if (submitted.block !== undefined) return submitted; // the start's context waits for the next prompt
    this.#starting = undefined;
    const context = [started, submitted.context].filter((part) => part !== undefined).join("\n\n");
    return context === "" ? {} : { context };
  }
}
