/** What an `AgentSession` is created with, what a prompt takes, and what `state()` says. */
import type { Config } from "../config/config.ts";
import type { ModelRequest } from "../config/provider_switch.ts";
import type { ApproveMode } from "../config/settings.ts";
import type { CallContext } from "../llm/retry.ts";
import type { ImagePart } from "../llm/types.ts";
import type { McpServer } from "../tools/mcp/client.ts";
import type { EditorFiles, Tool } from "../tools/tool.ts";
import type { AgentDefinition } from "./project/agents.ts";
import type { ApprovalGate } from "./policy/approval.ts";
import type { TaskBudget } from "./loop/budget.ts";
import type { AgentEvent } from "./events.ts";
import type { ProjectMemory } from "./project/memory.ts";
import type { PermissionRules } from "./policy/permission_rules.ts";
import type { LoadedSession } from "./log/session_file.ts";
import type { ModelInfo } from "./model_setup.ts";
import type { SessionUsage } from "./usage.ts";
import type { Skill } from "./project/skills.ts";
import type { ChildPlace, ChildSetup } from "./loop/sub_agents.ts";
import type { HookConfig } from "../config/hook_settings.ts";
import type { BackgroundProcesses } from "../tools/shell/background.ts";
import type { DiagnosticsService } from "../tools/lsp/diagnostics.ts";

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
  /** Reads the memory file again, as `memory` was read (`/clear` after `/init` carries the new one). */
  reloadMemory?: () => Promise<ProjectMemory | null>;
  /** The MCP servers started for this run; their tools are asked for at each new conversation, so a server
   * that became ready later joins. */
  mcpServers?: () => readonly McpServer[];
  /** Tools an embedding program adds (asked for at each new conversation, like MCP tools). */
  extraTools?: () => Tool[];
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
  /** Which front end this is, written in the session's header (`tern -c` in the REPL looks for "repl"). */
  frontEnd?: "repl" | "headless";
  /** Told of what the front end should show once: a session file that cannot be written, a model kept. */
  onNotice?: (message: string) => void;
  /** The named agents the task tool offers (`.tern/agents`, `.claude/agents`, the user's own). */
  agents?: readonly AgentDefinition[];
  /** Set for a sub-agent (built by its main session): its tools, prompt, model and budget. */
  child?: ChildSetup;
  /** Makes a worktree of its own for a sub-agent (the task tool's isolation), through the project's door. */
  isolate?: (name: string) => Promise<ChildPlace>;
  /** The hooks in force: the user's own, and the project's once it is trusted (they run sandboxed). */
  hooks?: readonly HookConfig[];
  /** The background processes to share (a sub-agent's are its main session's); default: the session's own. */
  background?: BackgroundProcesses;
  /** The language servers that check each file change (a sub-agent shares its main session's); absent = off. */
  diagnostics?: DiagnosticsService;
}

/** What a sub-agent's session takes over from its main session's options (the rest is its own). */
export function inheritedOptions(
  parent: AgentSessionOptions,
  shared: { sameModel: boolean; background: BackgroundProcesses },
): Omit<AgentSessionOptions, "config" | "save"> {
  const { version, env, fallback, mcpServers, extraTools, allowLocalFetch, advise, hooks, diagnostics } =
    parent;
  // The main session's window override fits only its own model.
  const contextWindow = shared.sameModel ? parent.contextWindow : undefined;
  const tools = { mcpServers, extraTools, allowLocalFetch, diagnostics };
  // Hooks: the child's session runs only the tool events of them.
  return { version, env, fallback, ...tools, advise, contextWindow, hooks, background: shared.background };
}

/** What a prompt needs from its front end. */
export interface PromptOptions {
  onEvent?: (event: AgentEvent) => void;
  /** Cancels this prompt (as `cancel()` does). */
  signal?: AbortSignal;
  /** Decides calls that need a yes; default: the session's policy with nobody to ask (refused). */
  approve?: ApprovalGate;
  /** An editor holding the project's files (`tern acp`): the file tools read and write its buffers. */
  editor?: EditorFiles;
  /** Images sent with the prompt's text (`@shot.png`); see `model.images` for whether the model reads them. */
  images?: ImagePart[];
  /** The task's budget (a sub-agent's, whose parent is the main task's); default: the configuration's limits. */
  budget?: TaskBudget;
}

/** The session at a glance, for status lines and `state` requests. */
export interface SessionState extends ModelInfo {
  mode: ApproveMode;
  sessionId?: string;
  usage: SessionUsage;
  /** Share of the context window the next request starts from, 0-100. */
  contextPercent: number;
}
