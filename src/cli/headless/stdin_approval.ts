/**
 * Approval over stream-json: a call that needs a yes goes out as an `approval_request` event and is answered
 * by an `approval` line on stdin; when none comes within the timeout (or stdin ends) the approval mode
 * decides as it does with nobody to ask: refused, naming the flag that allows it.
 */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { ApprovalAnswer, ApprovalGate, AskHuman } from "../../agent/policy/approval.ts";
import { event, type StreamEvent } from "./stream_json.ts";
import type { StreamInput } from "./stream_input.ts";

/** Default wait for an answer on stdin (`--approval-timeout`). */
export const APPROVAL_TIMEOUT_MS = 60_000;

/** What the gate needs from the run. */
export interface StdinGateOptions {
  input: StreamInput;
  emit: (event: StreamEvent) => void;
  timeoutMs?: number;
}

/** The session's gate (mode, rules, remembered answers), asking over stdout and stdin. */
export function stdinGate(session: AgentSession, options: StdinGateOptions): ApprovalGate {
  const timeoutMs = options.timeoutMs ?? APPROVAL_TIMEOUT_MS;
  const ask: AskHuman = async (request, need) => {
    const { call, inspection } = request;
    const preview = inspection.preview;
    options.emit(event("approval_request", {
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      summary: inspection.summary,
      effect: inspection.effect,
      paths: inspection.paths,
      why: need.why,
      detail: need.detail,
      flag: need.flag,
      rememberable: need.rememberable,
      command: preview?.kind === "command" ? preview.command : undefined,
      timeout_ms: timeoutMs,
    }));
    const answer = await options.input.answer(call.id, timeoutMs);
    // Said as it happened: a closed stdin ends the wait at once, long before the timeout.
    const unanswered = options.input.ended
      ? "stdin ended before an answer came"
      : `no answer came on stdin within ${timeoutMs / 1000} s`;
    const decided: ApprovalAnswer = answer ?? {
      kind: "deny",
      reason: `${unanswered}, so approval mode "${session.mode}" refused it (${need.detail}); ` +
        `the user can allow such calls with ${need.flag}`,
    };
    options.emit(event("approval_response", {
      id: call.id,
      decision: decisionOf(decided),
      by: answer ? "stdin" : "timeout",
      reason: decided.kind === "deny" ? decided.reason : undefined,
    }));
    return decided;
  };
  return session.gate(ask, (rule, error) => {
    if (error) options.emit(event("notice", { level: "warn", message: `could not save "${rule}"` }));
  });
}

function decisionOf(answer: ApprovalAnswer): string {
  if (answer.kind === "once" || answer.kind === "rule") return "allow";
  if (answer.kind === "session") return "allow_session";
  return answer.kind;
}
