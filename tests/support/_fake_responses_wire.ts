/**
 * OpenAI Responses side of the fake model server: scripted turns → real Responses SSE events (named), and
 * the checks a stateless (`store: false`) server makes: function_call/function_call_output paired by call_id,
 * and the reasoning item (with its encrypted content) of a turn that carried calls sent back before them.
 */
import { fragments, type ScriptedTurn } from "./_fake_model_wire.ts";
import { checkResponsesContent } from "./_fake_images.ts";

type Json = Record<string, unknown>;

/** What the server handed out, so later requests can be checked against it. */
export interface ResponsesIssued {
  /** Reasoning item id by the call_ids it came with. */
  reasoningByCall: Map<string, string>;
  /** Encrypted content by reasoning item id. */
  encrypted: Map<string, string>;
}

/** A fresh record of nothing issued. */
export function responsesIssued(): ResponsesIssued {
  return { reasoningByCall: new Map(), encrypted: new Map() };
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The named SSE frames of one scripted turn; records its reasoning item in `issued`. */
export function responsesFrames(
  turn: ScriptedTurn,
  context: { model: string; turnIndex: number },
  issued: ResponsesIssued,
): string[] {
  const size = turn.chunkSize ?? 4;
  const t = context.turnIndex;
  const response = { id: `resp_fake_${t}`, object: "response", model: context.model, status: "in_progress" };
  const events: Json[] = [{ type: "response.created", response }, { type: "response.in_progress", response }];
  const output: Json[] = [];
  const item = (added: Json, deltas: Json[], done: Json) => {
    const output_index = output.length;
    events.push({ type: "response.output_item.added", output_index, item: added });
    for (const delta of deltas) events.push({ ...delta, output_index, item_id: added.id });
    events.push({ type: "response.output_item.done", output_index, item: done });
    output.push(done);
  };
  const rsId = `rs_fake_${t}`;
  if (turn.reasoning) {
    const encrypted = `enc:${t}:${btoa(encodeURIComponent(turn.reasoning)).slice(0, 24)}`;
    issued.encrypted.set(rsId, encrypted);
    const summary = [{ type: "summary_text", text: turn.reasoning }];
    const deltas = fragments(turn.reasoning, size).map((delta) => ({
      type: "response.reasoning_summary_text.delta",
      summary_index: 0,
      delta,
    }));
    item({ id: rsId, type: "reasoning", summary: [] }, deltas, {
      id: rsId,
      type: "reasoning",
      summary,
      encrypted_content: encrypted,
    });
  }
  if (turn.text) {
    const deltas = fragments(turn.text, size).map((delta) => ({
      type: "response.output_text.delta",
      content_index: 0,
      delta,
    }));
    const content = [{ type: "output_text", text: turn.text, annotations: [] }];
    const id = `msg_fake_${t}`;
    item({ id, type: "message", role: "assistant", content: [] }, deltas, {
      id,
      type: "message",
      role: "assistant",
      status: "completed",
      content,
    });
  }
  (turn.toolCalls ?? []).forEach((call, n) => {
    const callId = call.id || `call_fake_${t}_${n}`;
    if (turn.reasoning) issued.reasoningByCall.set(callId, rsId);
    const base = { id: `fc_fake_${t}_${n}`, type: "function_call", call_id: callId, name: call.name };
    const deltas = fragments(call.arguments, size).map((delta) => ({
      type: "response.function_call_arguments.delta",
      delta,
    }));
    item({ ...base, arguments: "" }, deltas, { ...base, arguments: call.arguments, status: "completed" });
  });
  if (turn.streamError) {
    const { message, type, code } = turn.streamError;
    events.push({
      type: "error",
      error: { type: type ?? "server_error", code: code ?? type ?? "server_error", message },
    });
    return events.map(namedFrame);
  }
  const prompt = turn.usage?.prompt_tokens ?? 100;
  const completion = turn.usage?.completion_tokens ?? 10;
  const usage = { input_tokens: prompt, output_tokens: completion, total_tokens: prompt + completion };
  if (turn.finishReason === "length") {
    const incomplete_details = { reason: "max_output_tokens" };
    events.push({
      type: "response.incomplete",
      response: { ...response, status: "incomplete", incomplete_details, output, usage },
    });
  } else if (turn.finishReason !== null && !turn.omitDone) {
    events.push({
      type: "response.completed",
      response: { ...response, status: "completed", output, usage },
    });
  }
  return events.map(namedFrame);
}

function namedFrame(event: Json): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Checks a Responses request as a stateless server would: `store: false` with encrypted reasoning included,
 * every function_call answered by one function_call_output (by call_id) before the next message, no output
 * without its call, and the reasoning item of a turn that made calls sent back, unaltered, before them.
 * Returns the problem in words, or undefined.
 */
export function checkResponsesRequest(body: Json, issued: ResponsesIssued): string | undefined {
  if (typeof body.model !== "string" || body.model === "") return "model must be a non-empty string";
  if (body.stream !== true) return "stream must be true (this fake only streams)";
  if (body.store !== false) return "store must be false (tern keeps no state on the server)";
  if (!Array.isArray(body.include) || !body.include.includes("reasoning.encrypted_content")) {
    return 'include must list "reasoning.encrypted_content"';
  }
  if (!Array.isArray(body.input) || body.input.length === 0) return "input must be a non-empty array";
  const open = new Set<string>();
  const answered = new Set<string>();
  const reasoningSeen = new Set<string>();
  for (const [i, raw] of body.input.entries()) {
    const item: Json = isObject(raw) ? raw : {};
    const type = item.type ?? (item.role !== undefined ? "message" : undefined);
    if (type === "message") {
      if (open.size > 0) {
        return `input[${i}]: function_call(s) ${[...open].join(", ")} have no function_call_output`;
      }
      if (!["system", "developer", "user", "assistant"].includes(String(item.role))) {
        return `input[${i}]: unknown role ${JSON.stringify(item.role)}`;
      }
      const content = checkResponsesContent(item, `input[${i}]`);
      if (content) return content;
      if (item.role === "user") reasoningSeen.clear();
    } else if (type === "reasoning") {
      // As OpenAI does with store:false: an echoed id names an item the server never kept.
      if (item.id !== undefined) {
        return `input[${i}]: Item with id '${item.id}' not found. Items are not persisted when store is false`;
      }
      const id = [...issued.encrypted].find(([, encrypted]) => encrypted === item.encrypted_content)?.[0];
      if (id === undefined) return `input[${i}]: reasoning item with unknown or altered encrypted_content`;
      reasoningSeen.add(id);
    } else if (type === "function_call") {
      const callId = item.call_id;
      if (typeof callId !== "string" || callId === "") return `input[${i}]: function_call has no call_id`;
      if (typeof item.name !== "string" || typeof item.arguments !== "string") {
        return `input[${i}]: function_call ${callId} needs a name and string arguments`;
      }
      if (open.has(callId) || answered.has(callId)) return `input[${i}]: call_id ${callId} is used twice`;
      const rs = issued.reasoningByCall.get(callId);
      if (rs && !reasoningSeen.has(rs)) {
        return `input[${i}]: function_call ${callId} must follow its reasoning item ${rs} (send it back)`;
      }
      open.add(callId);
    } else if (type === "function_call_output") {
      const callId = String(item.call_id);
      if (!open.delete(callId)) {
        return `input[${i}]: function_call_output for ${JSON.stringify(callId)} answers no function_call`;
      }
      if (typeof item.output !== "string") return `input[${i}]: output must be a string`;
      answered.add(callId);
    } else {
      return `input[${i}]: unknown item type ${JSON.stringify(type)}`;
    }
  }
  if (open.size > 0) {
    return `function_call(s) ${[...open].join(", ")} have no function_call_output at the end of input`;
  }
  return undefined;
}
