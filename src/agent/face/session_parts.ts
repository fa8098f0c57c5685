/**
 * The parts an `AgentSession` is made of, built and wired to each other in one place: the model, usage,
 * hooks, MCP tools, the plan, sub-agents, the conversation held, prompts, model switches and the user's
 * actions. The face only delegates to them.
 */
import type { Config } from "../../config/config.ts";
import { KEY_VARIABLES } from "../../config/providers.ts";
import type { ApproveMode } from "../../config/settings.ts";
import { BackgroundProcesses } from "../../tools/shell/background.ts";
import type { Tool } from "../../tools/tool.ts";
import type { AgentSessionOptions } from "../agent_session_options.ts";
import type { SessionMeta } from "../log/session_file.ts";
import type { Snapshots } from "../log/snapshots.ts";
import { type ChildSession, type ChildSetup, SubAgents } from "../loop/sub_agents.ts";
import { McpWatch } from "../mcp_watch.ts";
import { SessionModels } from "../models.ts";
import type { PermissionRules } from "../policy/permission_rules.ts";
import { PlanKeeper } from "../policy/plan_mode.ts";
import { SessionHooks } from "../project/hook_context.ts";
import { SessionUsage } from "../usage.ts";
import { webSearchSetup } from "../web_search_setup.ts";
import { ConversationActions } from "./conversation_actions.ts";
import { ConversationSlot } from "./conversation_slot.ts";
import { ModelSwitch } from "./model_switch.ts";
import { PromptRunner } from "./prompt_run.ts";

/** What the parts ask of the face: its mode now, its rules, and how a sub-agent is made. */
export interface FaceLinks {
  rules: PermissionRules;
  mode(): ApproveMode;
  spawn(config: Config, setup: ChildSetup): Promise<ChildSession>;
}

/** One session's parts. */
export interface SessionParts {
  models: SessionModels;
  usage: SessionUsage;
  background: BackgroundProcesses;
  hooks: SessionHooks;
  /** Fires when the session closes: hooks still running stop. */
  closing: AbortController;
  plan: PlanKeeper;
  slot: ConversationSlot;
  switch: ModelSwitch;
  prompts: PromptRunner;
  actions: ConversationActions;
}

/** The parts for `options`, the first conversation (new or resumed) started. */
export function sessionParts(
  options: AgentSessionOptions,
  snapshots: Snapshots | null,
  face: FaceLinks,
): SessionParts {
  const root = options.config.root;
  const { env, contextWindow, advise } = options;
  const models = new SessionModels(options.config, { env, contextWindow, advise });
  const usage = new SessionUsage(models.setup.info);
  const background = options.background ?? new BackgroundProcesses();
  const closing = new AbortController();
  // The parts below reach each other through these, filled in as each is built (all calls come later).
  const late: { slot?: ConversationSlot; prompts?: PromptRunner } = {};
  const hooks = new SessionHooks(options.hooks ?? [], {
    root,
    sessionId: () => late.slot?.sessionId,
    transcriptPath: () => late.slot?.transcriptPath,
    mode: face.mode,
    child: options.child !== undefined,
    onNotice: options.onNotice,
    signal: closing.signal,
  });
  const mcp = options.mcpServers ? new McpWatch(options.mcpServers) : undefined;
  const plan = new PlanKeeper((event) => late.prompts?.emit(event));
  const subAgents = new SubAgents({
    root,
    agents: options.agents ?? [],
    config: () => models.config,
    spawn: face.spawn,
    toolNames: () => late.slot?.toolNames() ?? [],
    mode: face.mode,
    rules: face.rules,
    approvals: () => slot.now.conversation.approvals,
    emit: (event) => late.prompts?.emit(event),
    budget: () => late.prompts?.budget,
    isolate: options.isolate,
  });
  const slot: ConversationSlot = late.slot = conversationSlot(options, models, {
    background,
    // task and update_plan only in a main session: a child keeps no plan and starts no child (depth 1).
    extraTools: () => [
      ...mcp?.tools(mcpSecrets(options, models)) ?? [],
      ...options.extraTools?.() ?? [],
      ...options.child ? [] : [subAgents.tool(), plan.tool()],
    ],
  });
  const prompts = late.prompts = new PromptRunner({
    ...{ root, slot, models, usage, hooks, snapshots, mcp, diagnostics: options.diagnostics },
    child: options.child !== undefined,
    mode: face.mode,
    rules: face.rules,
    saveRule: options.saveRule,
  });
  const actions = new ConversationActions(root, { slot, models, snapshots });
  const modelSwitch = new ModelSwitch(models, usage, slot, options);
  return { models, usage, background, hooks, closing, plan, slot, switch: modelSwitch, prompts, actions };
}

/** The conversation held: its tools' setup, the first conversation (new or resumed) and its session file. */
function conversationSlot(
  options: AgentSessionOptions,
  models: SessionModels,
  parts: { background: BackgroundProcesses; extraTools: () => Tool[] },
): ConversationSlot {
  return new ConversationSlot(
    {
      root: options.config.root,
      shell: { sandbox: options.config.sandbox, secrets: models.secrets, background: parts.background },
      web: { allowLocal: options.allowLocalFetch === true, search: webSearchSetup(options) },
      images: () => models.setup.info.images,
      extraTools: parts.extraTools,
      child: options.child,
      skills: options.skills,
      meta: () => sessionMeta(options, models),
      save: options.save,
      onSaveError: options.onNotice,
    },
    options.memory ?? null,
    options.resume,
  );
}

/** What MCP results never show: the keys in use and every provider key variable's value. */
function mcpSecrets(options: AgentSessionOptions, models: SessionModels): string[] {
  const values = KEY_VARIABLES.map((name) => options.env[name] ?? "").filter((value) => value !== "");
  return [...models.secrets, ...values];
}

/** The session file header's words on who wrote it: tern's version, the model, the front end. */
function sessionMeta(options: AgentSessionOptions, models: SessionModels): SessionMeta {
  const { provider, model, api } = models.setup.info;
  const frontEnd = options.frontEnd ? { frontEnd: options.frontEnd } : {};
  return { tern: options.version, provider, model, api, ...frontEnd };
}
