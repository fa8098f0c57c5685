/**
 * Sub-agents: the task tool's jobs, each run by a child session with its own context. A child gets the
 * read-only tools unless its agent names others, and never more than the main session has; it never runs
 * the task tool (depth 1) nor keeps the plan; it never asks the human (the main session's approval mode and
 * rules decide, with nobody to ask); it stops at its own turn and token budget; at most 3 run at once, and
 * the main task's cancel stops them. Its events reach the main session's stream tagged with its id.
 */
import type { Config } from "../../config/config.ts";
import type { ApproveMode } from "../../config/settings.ts";
import { createTaskTool, type SubAgentRequest } from "../../tools/task.ts";
import {
  type EditorFiles,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolResult,
} from "../../tools/tool.ts";
import type { AgentDefinition } from "../project/agents.ts";
import { type ApprovalGate, type ApprovalSession, createApprovalGate } from "../policy/approval.ts";
import type { AgentEvent } from "../events.ts";
import type { TaskResult } from "./loop.ts";
import type { PermissionRules } from "../policy/permission_rules.ts";
import { TOOL_RESULT_NOTICE } from "../policy/untrusted.ts";
import { CHILD_DEFAULT_TOOLS, NEVER_FOR_CHILDREN } from "../../tools/tool_names.ts";
import { TaskBudget } from "./budget.ts";

/** Children running at once; more wait for a free slot. */
export const MAX_PARALLEL_CHILDREN = 3;
/** A child's own budget: model calls and tokens (the main session's --token-budget lowers it). */
export const CHILD_MAX_TURNS = 20;
export const CHILD_TOKEN_BUDGET = 200_000;
const MAX_INSTRUCTIONS_CHARS = 16_000;

/** What a child session is built with besides its configuration (the main session builds it). */
export interface ChildSetup {
  /** The names of the tools it gets. */
  tools: ReadonlySet<string>;
  /** Its system prompt, from its tools. */
  systemPrompt(tools: readonly Tool[]): string;
}

/** A child session, as far as the runner needs it. */
export interface ChildSession {
  run(
    text: string,
    options: {
      signal: AbortSignal;
      approve: ApprovalGate;
      onEvent: (event: AgentEvent) => void;
      editor?: EditorFiles;
      budget?: TaskBudget;
    },
  ): Promise<TaskResult>;
}

/**
 * A worktree of its own for one child (the task's `isolation: "worktree"`), made through the project's door:
 * the child's root, its session there, and what its work became once it is done.
 */
export interface ChildPlace {
  root: string;
  spawn(config: Config, setup: ChildSetup, rules: PermissionRules): Promise<ChildSession>;
  /** Closes what the place opened; the lines the task's result ends with (branch, diff stat). */
  finish(description: string): Promise<string>;
}

/** What the runner needs from the main session. */
export interface SubAgentHost {
  root: string;
  agents: readonly AgentDefinition[];
  /** The main session's configuration now (its model, endpoint and key after any switch). */
  config(): Config;
  /** Builds a child session on `config`. */
  spawn(config: Config, setup: ChildSetup): Promise<ChildSession>;
  /** The names of the main session's tools now. */
  toolNames(): string[];
  /** The main session's approval mode now, its rules and the answers remembered in its conversation. */
  mode(): ApproveMode;
  rules: PermissionRules;
  approvals(): ApprovalSession;
  /** Where the children's events go: the main session's running prompt. */
  emit(event: AgentEvent): void;
  /** The running task's budget: a child's tokens count into it, and a child stops when it is used up. */
  budget?(): TaskBudget | undefined;
  /** Makes worktree `name` for one child (absent: no isolation offered, e.g. a child's own host). */
  isolate?(name: string): Promise<ChildPlace>;
}

/** Runs the task tool's jobs for one main session. */
export class SubAgents {
  readonly #host: SubAgentHost;
  #running = 0;
  #waiting: (() => void)[] = [];
  #count = 0;

  constructor(host: SubAgentHost) {
    this.#host = host;
  }

  /** The task tool, offering this session's named agents. */
  tool(): Tool {
    return createTaskTool(this.#host.agents, (request, ctx) => this.run(request, ctx), {
      isolation: this.#host.isolate !== undefined,
    });
  }

  /** Runs `request` in a child and returns its answer as the task call's result; throws ToolError. */
  async run(request: SubAgentRequest, ctx: ToolContext): Promise<ToolResult> {
    const agent = this.#host.agents.find((known) => known.name === request.agent);
    await this.#slot(ctx.signal);
    let place: ChildPlace | undefined;
    try {
      if (request.isolation === "worktree") place = await this.#place();
      const setup = this.#setup(agent, place?.root);
      const parent = this.#host.budget?.();
      if (parent?.exceeded() === "token_budget") {
        throw new ToolError(
          `task: not started: ${parent.describe("token_budget")}. Finish with what you have.`,
          "refused",
        );
      }
      const config = this.#config(agent, parent);
      const child = place
        ? await place.spawn(config, setup, this.#host.rules)
        : await this.#host.spawn(config, setup);
      const childId = ctx.callId ?? `child-${++this.#count}`;
      const host = this.#host;
      host.emit({ type: "child_start", childId, agent: request.agent, description: request.description });
      const result = await child.run(request.prompt, {
        signal: ctx.signal,
        editor: ctx.editor, // an editor's buffers (tern acp) are the child's files too
        approve: this.#gate(),
        // Its own limits, and the main task's tokens left: it stops when either runs out.
        budget: new TaskBudget(config, { parent }),
        onEvent: (event) => {
          if (event.type === "usage") parent?.recordChildUsage(event.usage);
          host.emit({ type: "child_event", childId, event });
        },
      });
      const worktree = await place?.finish(request.description);
      place = undefined;
      return answer(request.agent, result, worktree);
    } finally {
      await place?.finish(request.description).catch(() => "");
      this.#release();
    }
  }

  /** A fresh worktree for one child; what prevents it is said to the model. */
  async #place(): Promise<ChildPlace> {
    const name = `task-${crypto.randomUUID().slice(0, 8)}`;
    try {
      return await this.#host.isolate!(name);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ToolError(
        `task: no worktree for the sub-agent: ${why}. Run it without isolation.`,
        "refused",
      );
    }
  }

  #setup(agent: AgentDefinition | undefined, isolatedRoot?: string): ChildSetup {
    const has = new Set(this.#host.toolNames());
    const wanted = agent?.tools ?? CHILD_DEFAULT_TOOLS;
    const tools = new Set(wanted.filter((name) => has.has(name) && !NEVER_FOR_CHILDREN.has(name)));
    const root = isolatedRoot ?? this.#host.root;
    return { tools, systemPrompt: (built) => childSystemPrompt(root, built, agent) };
  }

  /** The main session's configuration with the agent's model, the mode now and the child's own budget. */
  #config(agent: AgentDefinition | undefined, parent?: TaskBudget): Config {
    const config = this.#host.config();
    const budget = parent?.tokensLeft ?? config.tokenBudget;
    return {
      ...config,
      model: agent?.model ?? config.model,
      approve: this.#host.mode(),
      maxTurns: CHILD_MAX_TURNS,
      tokenBudget: budget === undefined ? CHILD_TOKEN_BUDGET : Math.min(budget, CHILD_TOKEN_BUDGET),
      requireTools: undefined,
    };
  }

  /** The main session's policy and rules, with nobody to ask: an agent file can grant nothing. */
  #gate(): ApprovalGate {
    const mode = this.#host.mode();
    return createApprovalGate(mode, undefined, {
      session: this.#host.approvals(),
      rules: this.#host.rules,
      refusal: (request, need) =>
        `${request.call.name} was not run: it needs the user's approval (${need.detail}), and a sub-agent ` +
        `cannot ask (approval mode "${mode}"). Do not retry it; finish with what you found and say in your ` +
        "answer what should be changed, so the main agent can do it.",
    });
  }

  async #slot(signal: AbortSignal): Promise<void> {
    while (this.#running >= MAX_PARALLEL_CHILDREN) {
      if (signal.aborted) throw new ToolError("task: cancelled by the user", "cancelled");
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#waiting.push(resolve);
      const onAbort = () => resolve();
      signal.addEventListener("abort", onAbort, { once: true });
      await promise;
      signal.removeEventListener("abort", onAbort);
    }
    if (signal.aborted) throw new ToolError("task: cancelled by the user", "cancelled");
    this.#running++;
  }

  #release(): void {
    this.#running--;
    // Every waiter looks again (one woken by its own cancel has left the queue's count behind).
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }
}

/** The task call's result: the child's answer and one line of what it used; failures as ToolError. */
function answer(agent: string, result: TaskResult, worktree?: string): ToolResult {
  const { exitReason, turns, toolCalls, usage } = result;
  const subAgent = { agent, exitReason, turns, toolCalls, tokens: usage.totalTokens };
  const where = worktree ? `\n${worktree}` : "";
  const used =
    `${turns} turn${turns === 1 ? "" : "s"}, ${toolCalls} tool call${toolCalls === 1 ? "" : "s"}, ` +
    `${usage.totalTokens.toLocaleString("en-US")} tokens`;
  if (exitReason === "cancelled") {
    throw new ToolError(`task: the sub-agent was cancelled (${used})`, "cancelled");
  }
  if (exitReason === "error") {
    return {
      content: `task: the sub-agent failed: ${result.error ?? "unknown error"} (${used})` +
        (result.text ? `\nWhat it said before:\n${result.text}` : "") + where,
      error: { kind: "internal" },
      details: { subAgent },
    };
  }
  const note = result.partial ? `stopped early (${exitReason}), so the answer may be partial; ` : "";
  return { content: `${result.text}\n\n[sub-agent ${agent}: ${note}${used}]${where}`, details: { subAgent } };
}

/** A child's system prompt: its role, its tools' guidance, its agent's instructions. */
export function childSystemPrompt(
  root: string,
  tools: readonly Pick<Tool, "guidance">[],
  agent?: AgentDefinition,
): string {
  const instructions = agent?.instructions.slice(0, MAX_INSTRUCTIONS_CHARS) ?? "";
  return [
    `You are a sub-agent of tern, a coding agent, in the user's project at ${root}. File paths are relative ` +
    "to it; tools cannot reach outside it. The main agent handed you one job: do it with your tools, then " +
    "answer. Your final answer is all the main agent sees of your work: give the facts it asked for (paths, " +
    "line numbers, names, findings) completely and briefly. You cannot ask the user anything.",
    ...tools.flatMap((tool) => tool.guidance ? [`- ${tool.guidance}`] : []),
    ...(instructions.trim() === ""
      ? []
      : [`Instructions of the "${agent!.name}" agent (${agent!.source}):`, instructions.trim()]),
    TOOL_RESULT_NOTICE,
  ].join("\n");
}
