/**
 * Approval: which tool calls need a human's yes (policy), what the human can answer (decisions), and what
 * happens when nobody can answer (headless refusals that name the flag). Pure: no terminal, no files.
 */
import type { ApproveMode } from "../../config/settings.ts";
import { protectedPathReason } from "../../config/protected_paths.ts";
import { planModeRefusal } from "./plan_mode.ts";

export { protectedPathReason };
import type { ApprovalRequest } from "./approval_request.ts";
import type { PermissionRules } from "./permission_rules.ts";

/**
 * `ask`: ask before edits and risky commands; `edits`: edits run, risky commands ask; `all`: everything runs;
 * `plan`: only reads run, everything else is refused without asking.
 */
export type ApprovalPolicy = ApproveMode;

/**
 * Why a call needs a yes: a plain edit, a protected path, a command outside the sandbox, network, a
 * command that deletes or discards project state, a command a deny rule may cover, or an MCP server's tool.
 */
export type AskReason =
  | "edit"
  | "protected_path"
  | "unsandboxed"
  | "network"
  | "destructive"
  | "unclear_rule"
  | "ask_rule"
  | "mcp";

/** The policy's verdict on one request. */
export type Assessment =
  | { ask: false }
  | {
    ask: true;
    why: AskReason;
    /** One line for the human and the model, e.g. ".env is a protected path: env files hold secrets". */
    detail: string;
    /** The flag that lets this call run without asking. */
    flag: "--approve edits" | "--approve all";
    /** Whether "don't ask again for this tool" may cover it (never for protected paths or network). */
    rememberable: boolean;
  };

/** What the human answered at the prompt. */
export type ApprovalAnswer =
  | { kind: "once" }
  | { kind: "session" }
  /** Yes, and allow what `rule` covers from now on (saved in the project's settings). */
  | { kind: "rule"; rule: string }
  | { kind: "deny"; reason?: string }
  | { kind: "abort" };

/**
 * The gate's decision. `abort: true` means the user stopped the whole turn: the loop must cancel the turn's
 * signal, give this call `reason` as its (error) result and every call not yet run a cancelled result, and end
 * the task with exit reason "cancelled".
 */
export type ApprovalDecision =
  | { allow: true }
  | {
    allow: false;
    reason: string;
    abort?: boolean;
    /** Nobody could be asked (headless, no terminal): the flag that would have let the call run. */
    needs?: Extract<Assessment, { ask: true }>["flag"];
  };

/** Asks for (or decides) approval of one call. */
export type ApprovalGate = (request: ApprovalRequest) => Promise<ApprovalDecision>;

/** Asks a human. `true`/`false` are shorthand for approve once / deny without a reason. */
export type AskHuman = (
  request: ApprovalRequest,
  need: Extract<Assessment, { ask: true }>,
) => Promise<ApprovalAnswer | boolean>;

/** Tools the user allowed for the rest of the session ("don't ask again"); owned by the REPL, lives across tasks. */
export class ApprovalSession {
  #tools = new Set<string>();

  /** Remembers that `tool` runs without asking from now on (protected paths and network still ask). */
  allow(tool: string): void {
    this.#tools.add(tool);
  }

  /** True when the user allowed `tool` for the session. */
  allows(tool: string): boolean {
    return this.#tools.has(tool);
  }

  /** The allowed tools, sorted (for a /permissions-style listing). */
  list(): string[] {
    return [...this.#tools].sort();
  }
}

/** The protected path a request writes to, with why; every path the tool resolved is checked. */
function protectedTarget(request: ApprovalRequest): { path: string; reason: string } | undefined {
  for (const path of request.inspection.paths) {
    const reason = protectedPathReason(path);
    if (reason !== undefined) return { path, reason };
  }
  return undefined;
}

/**
 * The policy table. Reads never ask; `all` never asks. Under `ask` and `edits`: a protected path, a command
 * outside the sandbox, and a command asking for network always ask; a sandboxed command without network
 * runs. Plain edits ask under `ask` only.
 */
export function assessRequest(policy: ApprovalPolicy, request: ApprovalRequest): Assessment {
  const { effect, sandboxed, destructive, server } = request.inspection;
  if (effect === "read" || policy === "all") return { ask: false };
  // An outside program's tool: what it does is the server's business, so it asks, saying where it runs.
  if (server !== undefined) {
    const detail = `a tool of the MCP server "${server.name}" (${server.runsIn})`;
    return { ask: true, why: "mcp", detail, flag: "--approve all", rememberable: true };
  }
  if (effect === "write") {
    const target = protectedTarget(request);
    if (target !== undefined) {
      const detail = `${target.path} is a protected path: ${target.reason}`;
      return { ask: true, why: "protected_path", detail, flag: "--approve all", rememberable: false };
    }
    if (policy === "edits") return { ask: false };
    const detail = `${request.call.name} changes a file`;
    return { ask: true, why: "edit", detail, flag: "--approve edits", rememberable: true };
  }
  // Without the sandbox the command can already reach the network: ask once, as "unsandboxed".
  if (!sandboxed) {
    const detail = "the command runs outside the sandbox (full access to files and network)";
    return { ask: true, why: "unsandboxed", detail, flag: "--approve all", rememberable: true };
  }
  // The sandbox lets a command write inside the project; it cannot tell cleaning up from destroying work.
  if (destructive !== undefined) {
    const detail = `the command deletes or discards project state: ${destructive}`;
    return { ask: true, why: "destructive", detail, flag: "--approve all", rememberable: false };
  }
  if (effect === "network") {
    const detail = `${request.call.name} asks for network access`;
    return { ask: true, why: "network", detail, flag: "--approve all", rememberable: false };
  }
  return { ask: false };
}

/**
 * Builds the gate. Without `askHuman` (headless, or no terminal), every call that would ask is refused
 * with a result naming the flag that allows it. A "session" answer is remembered in `options.session`
 * (pass the REPL's, so it outlives the task) and covers later rememberable calls of the same tool.
 * Permission rules: a deny rule refuses a call whatever the policy; an allow rule (or a "rule" answer,
 * passed to `saveRule`, or a hook's allow) lets a call run unasked, but never a protected path or a network
 * request.
 */
export function createApprovalGate(
  policy: ApprovalPolicy,
  askHuman?: AskHuman,
  options: GateOptions = {},
): ApprovalGate {
  const session = options.session ?? new ApprovalSession();
  return async (request) => {
    const refused = await refusedUnasked(policy, request, options.rules);
    if (refused) return refused;
    // A deny rule that may cover a command whose words only the shell can resolve (`$g x`, inline code, a git
    // alias): asked, whatever the policy, and refused when nobody can answer.
    const unclear = options.rules?.unclearDeny(request);
    const asked = await askedByRule(request, options.rules);
    const need: Assessment = asked ?? (unclear ? unclearNeed(unclear.text) : assessRequest(policy, request));
    if (!need.ask) return { allow: true };
    if (!askHuman && (asked || unclear)) return { allow: false, reason: nobodyToAsk(request, need, !!asked) };
    // "Don't ask again for this tool" never covers unconfined commands: the banner says they always ask.
    const sessionWide = need.rememberable && need.why !== "unsandboxed";
    if (request.allowedByHook && need.rememberable) return { allow: true };
    if (sessionWide && session.allows(request.call.name)) return { allow: true };
    if (need.rememberable && await options.rules?.match("allow", request)) return { allow: true };
    if (!askHuman) {
      const reason = options.refusal?.(request, need) ?? headlessRefusal(policy, request, need);
      return { allow: false, reason, needs: need.flag };
    }
    const answer = toAnswer(await askHuman(request, need));
    if (answer.kind === "session" && sessionWide) session.allow(request.call.name);
    if (answer.kind === "rule" && need.rememberable && options.rules?.add("allow", answer.rule)) {
      options.saveRule?.(answer.rule);
    }
    return decisionOf(answer);
  };
}

/** What the gate is given besides the policy and the asker. */
interface GateOptions {
  session?: ApprovalSession;
  rules?: PermissionRules;
  saveRule?: (rule: string) => void;
  /** What the model reads when a call needs a yes and there is nobody to ask (default: the headless words). */
  refusal?: (request: ApprovalRequest, need: Extract<Assessment, { ask: true }>) => string;
}

/** A refusal that asks nobody: a deny rule's, or plan mode's for anything but a read. */
async function refusedUnasked(
  policy: ApprovalPolicy,
  request: ApprovalRequest,
  rules: PermissionRules | undefined,
): Promise<ApprovalDecision | undefined> {
  const denied = await rules?.match("deny", request);
  if (denied) {
    return {
      allow: false,
      reason: `${request.call.name} was not run: the project's permission rule "deny ${denied.text}" ` +
        `(.tern/settings.json) refuses it. Do not retry it; try another way or ask the user.`,
    };
  }
  if (policy === "plan" && request.inspection.effect !== "read") {
    return { allow: false, reason: planModeRefusal(request.call.name) };
  }
  return undefined;
}

/** The need to ask that a deny rule which may cover a command's unreadable words makes. */
function unclearNeed(rule: string): Extract<Assessment, { ask: true }> {
  return {
    ask: true,
    why: "unclear_rule",
    detail:
      `the command's words cannot be read for certain, and the permission rule "deny ${rule}" may cover it`,
    flag: "--approve all",
    rememberable: false,
  };
}

/** What the model reads when a rule or hook asks for a yes (or a deny rule may apply) and nobody can answer. */
function nobodyToAsk(
  request: ApprovalRequest,
  need: Extract<Assessment, { ask: true }>,
  asked: boolean,
): string {
  if (asked) return `${request.call.name} was not run: ${need.detail}, and nobody can answer here.`;
  return `${request.call.name} was not run: ${need.detail}. Write the command out plainly (no variable, ` +
    "substitution, inline script, alias or stdin-fed shell hiding what runs), or ask the user.";
}

/** The gate's decision for the human's answer. */
function decisionOf(answer: ApprovalAnswer): ApprovalDecision {
  if (answer.kind === "once" || answer.kind === "session" || answer.kind === "rule") return { allow: true };
  if (answer.kind === "abort") {
    return { allow: false, abort: true, reason: "cancelled by the user: the turn was stopped at the prompt" };
  }
  return { allow: false, reason: denialText(answer.reason) };
}

/** The need to ask that an ask rule or a hook's "ask" makes, whatever the policy (undefined: none). */
async function askedByRule(
  request: ApprovalRequest,
  rules: PermissionRules | undefined,
): Promise<Extract<Assessment, { ask: true }> | undefined> {
  const rule = request.askedByHook === undefined ? await rules?.match("ask", request) : undefined;
  if (request.askedByHook === undefined && rule === undefined) return undefined;
  const detail = rule
    ? `the permission rule "ask ${rule.text}" asks for this call every time`
    : `a PreToolUse hook asks for a yes${request.askedByHook ? `: ${request.askedByHook}` : ""}`;
  return { ask: true, why: "ask_rule", detail, flag: "--approve all", rememberable: false };
}

function toAnswer(answer: ApprovalAnswer | boolean): ApprovalAnswer {
  if (answer === true) return { kind: "once" };
  if (answer === false) return { kind: "deny" };
  return answer;
}

/** What the model reads when the user says no. */
export function denialText(reason?: string): string {
  const given = reason?.trim() ?? "";
  if (given !== "") return `The user denied this call: ${given}`;
  return "The user denied this call. Do not retry it unchanged: try another way or ask the user.";
}

function headlessRefusal(
  policy: ApprovalPolicy,
  request: ApprovalRequest,
  need: Extract<Assessment, { ask: true }>,
): string {
  return `${request.call.name} was not run: it needs approval (${need.detail}), and tern has no terminal ` +
    `to ask (approval policy "${policy}"). The user can allow it by rerunning tern with ${need.flag}, or ` +
    `by running tern on a terminal (the REPL, or tern -p from a terminal), where tern asks. ` +
    `Continue without it, or tell the user what you wanted to do.`;
}
