/** What one task needs besides its conversation: the loop and the tool-call path both read it. */
import type { ImagePart, LlmClient } from "../../llm/types.ts";
import type { Registry } from "../../tools/registry.ts";
import type { EditorFiles, FileDiagnostics } from "../../tools/tool.ts";
import type { ApprovalGate } from "../policy/approval.ts";
import type { AgentEvent } from "../events.ts";
import type { ModelCallOptions } from "./model_call.ts";
import type { Hooks } from "../project/hooks.ts";
import type { TaskBudget } from "./budget.ts";

/** Everything one task needs besides its conversation; the loop knows no tool and no terminal by name. */
export interface LoopOptions {
  client: LlmClient;
  registry: Registry;
  model: string;
  root: string;
  approve: ApprovalGate;
  onEvent: (event: AgentEvent) => void;
  signal: AbortSignal;
  /** Model requests allowed for this task (off when undefined). */
  maxTurns?: number;
  /** Total tokens allowed for this task (off when undefined). */
  tokenBudget?: number;
  /** Wall-clock milliseconds allowed for this task (off when undefined). */
  timeLimitMs?: number;
  /** The task's budget, made by the caller (its sub-agents count into it); default: one from the limits above. */
  budget?: TaskBudget;
  /** Tools the model must call in order, each until a call succeeds (see RequiredTools); names checked by the caller. */
  requireTools?: readonly string[];
  /** Context window, provider words for errors, retry knobs, clock: see ModelCallOptions. */
  contextWindow?: ModelCallOptions["contextWindow"];
  /** Estimates each request on the wire in use, calibrated by reported usage (compaction acts on it). */
  gauge?: ModelCallOptions["gauge"];
  provider?: ModelCallOptions["provider"];
  retry?: ModelCallOptions["retry"];
  /** The model a call moves to once retries are exhausted on 429/5xx/overloaded (`--fallback`). */
  fallback?: ModelCallOptions["fallback"];
  now?: ModelCallOptions["now"];
  /** The files through an editor (`tern acp`): the file tools read and write its buffers. */
  editor?: EditorFiles;
  /** The session's language servers: edit_file and write_file report the errors a write brought. */
  diagnostics?: FileDiagnostics;
  /** Images attached to the user's prompt (`@shot.png`), sent with its text. */
  images?: ImagePart[];
  /** What hooks said about the prompt (UserPromptSubmit, SessionStart): logged after it, for the model. */
  context?: string;
  /** The session's hooks: around each tool call, and when the model would stop. */
  hooks?: Hooks;
}
