/**
 * Approvals in the editor: a call that needs a yes goes out as `session/request_permission` with allow once,
 * allow always (where the policy may remember it) and reject. "Allow always" is the REPL's "always allow"
 * answer: the rule it suggests first, kept for the session and saved in .tern/settings.json.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentSession } from "../../agent/agent_session.ts";
import type { ApprovalAnswer, ApprovalGate, Assessment } from "../../agent/policy/approval.ts";
import type { ApprovalRequest } from "../../agent/policy/approval_request.ts";
import { suggestRules } from "../../agent/policy/permission_rules.ts";
import { toolKind, toolLocations, toolTitle, type UpdateMapper } from "./updates.ts";

/** How the gate reaches the editor. */
export interface EditorAsk {
  sessionId: string;
  /** Sends `session/request_permission`; rejects when the connection is gone. */
  request(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
  /** Sends a `session/update` (the diff of an edit, also when it runs unasked). */
  update(update: acp.SessionUpdate): Promise<void>;
  mapper: UpdateMapper;
}

/** The session's gate (mode, rules, remembered answers) asking the editor. */
export function editorGate(session: AgentSession, editor: EditorAsk): ApprovalGate {
  const gate = session.gate(async (request, need) => {
    const options = permissionOptions(request, need);
    const rule = suggestRules(request)[0]?.rule;
    const response = await editor.request({
      sessionId: editor.sessionId,
      toolCall: {
        toolCallId: request.call.id,
        title: toolTitle(request.call.name, request.inspection.summary),
        kind: toolKind(request.call.name, request.inspection.effect),
        status: "pending",
        content: editor.mapper.preview(request.call.id, request.inspection.preview).content,
        locations: toolLocations(session.root, parse(request.call.arguments)),
      },
      options,
    }).catch(() => ({ outcome: { outcome: "cancelled" } }) as acp.RequestPermissionResponse);
    return answerFor(response.outcome, options, rule);
  }, (rule, error) => {
    if (error) console.error(`tern: could not save "${rule}" in .tern/settings.json: ${error.message}`);
  });
  return async (request) => {
    // The edit's diff reaches the editor whether or not anyone is asked: nothing is written out of sight.
    const preview = editor.mapper.preview(request.call.id, request.inspection.preview);
    if (preview.content?.length) await editor.update({ sessionUpdate: "tool_call_update", ...preview });
    return await gate(request);
  };
}

/** Allow once, allow always (only where the policy may remember the answer), reject. */
export function permissionOptions(
  request: ApprovalRequest,
  need: Extract<Assessment, { ask: true }>,
): acp.PermissionOption[] {
  const always: acp.PermissionOption[] = need.rememberable
    ? [{ optionId: "allow_always", name: alwaysLabel(request), kind: "allow_always" }]
    : [];
  return [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    ...always,
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ];
}

function alwaysLabel(request: ApprovalRequest): string {
  const suggestion = suggestRules(request)[0];
  if (!suggestion) return `Allow ${request.call.name} for this session`;
  return `Always allow ${suggestion.label} (saves ${suggestion.rule})`;
}

/**
 * The editor's choice as the gate's answer; a cancelled question stops the turn. Only an option that was
 * offered counts: any other id (an "allow_always" never offered for this call) is a rejection, and said.
 */
export function answerFor(
  outcome: acp.RequestPermissionOutcome,
  offered: readonly acp.PermissionOption[],
  rule?: string,
): ApprovalAnswer {
  if (outcome.outcome === "cancelled") return { kind: "abort" };
  if (!offered.some((option) => option.optionId === outcome.optionId)) {
    console.error(
      `tern: the editor answered with option "${outcome.optionId}", which was not offered: rejected`,
    );
    return { kind: "deny" };
  }
  if (outcome.optionId === "allow_once") return { kind: "once" };
  if (outcome.optionId === "allow_always") return rule ? { kind: "rule", rule } : { kind: "session" };
  return { kind: "deny" };
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
