/**
 * task: hands a self-contained job to a sub-agent, a child session with its own context, and returns only its
 * final answer (and its usage). The child's machinery is the caller's: this tool knows only a runner.
 */

import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";

/** An agent the model may name: listed in the tool's description. */
export interface AgentSummary {
  name: string;
  description: string;
}

/** One job for a sub-agent, as the model asked for it. */
export interface SubAgentRequest {
  /** The agent's name; the default agent when the model named none. */
  agent: string;
  description: string;
  prompt: string;
  /** "worktree": the child works in a git worktree of its own, on its own branch. */
  isolation?: "worktree";
}

/** Runs one job in a child session and returns its answer as this call's result; throws ToolError. */
export type SubAgentRunner = (request: SubAgentRequest, ctx: ToolContext) => Promise<ToolResult>;

/** The name of the agent a task runs when none is named: read-only tools, the child prompt only. */
export const DEFAULT_AGENT = "general";

const MAX_DESCRIPTION_CHARS = 80;

function describe(agents: readonly AgentSummary[]): string {
  const base =
    "Read-only sub-agent that sees only prompt (say what its answer must hold); calls run in parallel.";
  if (agents.length === 0) return base;
  return [base, "Agents:", ...agents.map((agent) => `- ${agent.name}: ${agent.description}`)].join("\n");
}

const ISOLATION = {
  type: "string",
  enum: ["worktree"],
  description: "Its own git worktree and branch, for writing jobs in parallel; branch and diff come back.",
};

/** The arguments' schema; `agent` only when there are named agents to choose from, `isolation` when offered. */
function parametersFor(agents: readonly AgentSummary[], isolation: boolean): Record<string, unknown> {
  const agent = { type: "string", description: `Default "${DEFAULT_AGENT}".` };
  return {
    type: "object",
    properties: {
      description: { type: "string", description: "3-5 words." },
      prompt: { type: "string" },
      ...agents.length > 0 && { agent },
      ...isolation && { isolation: ISOLATION },
    },
    required: ["description", "prompt"],
    additionalProperties: false,
  };
}

/** Arguments of task, as validated against its schema. */
export type TaskArgs = { description: string; prompt: string; agent?: string; isolation?: "worktree" };

function request(args: TaskArgs, agents: readonly AgentSummary[]): SubAgentRequest {
  const agent = args.agent?.trim() || DEFAULT_AGENT;
  if (agent !== DEFAULT_AGENT && !agents.some((known) => known.name === agent)) {
    const names = [DEFAULT_AGENT, ...agents.map((known) => known.name)].join(", ");
    throw new ToolError(`task: there is no agent "${agent}". The agents are: ${names}.`, "bad_arguments");
  }
  if (args.prompt.trim() === "") {
    throw new ToolError("task: prompt is empty; describe the whole job for the sub-agent.", "bad_arguments");
  }
  const description = args.description.replace(/\s+/g, " ").trim().slice(0, MAX_DESCRIPTION_CHARS);
  return { agent, description, prompt: args.prompt, ...args.isolation && { isolation: args.isolation } };
}

/**
 * The task tool over `agents` (the named ones; the default agent is always there), running jobs with `run`;
 * `isolation` offers the worktree argument.
 */
export function createTaskTool(
  agents: readonly AgentSummary[],
  run: SubAgentRunner,
  options: { isolation?: boolean } = {},
): Tool<TaskArgs, SubAgentRequest> {
  return {
    name: "task",
    description: describe(agents),
    parameters: parametersFor(agents, options.isolation === true),
    // The child's own gate decides each of its calls; the call itself changes nothing, so it runs beside reads.
    inspect: (args) => {
      const plan = request(args, agents);
      return Promise.resolve({
        effect: "read",
        paths: [],
        summary: `${plan.agent}: ${plan.description}`,
        plan,
      });
    },
    run: (args, ctx, plan) => run(plan ?? request(args, agents), ctx),
  };
}
