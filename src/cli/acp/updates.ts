/**
 * tern's events as ACP `session/update`s: message and thought chunks, tool calls with kind, title, locations
 * and status, their content (diffs for edits, the output of commands), and a saved conversation replayed
 * for `session/load`.
 */
import { isAbsolute, join } from "../../fs/path.ts";
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../../agent/events.ts";
import type { Entry } from "../../agent/log/conversation.ts";
import type { CallPreview, ToolEffect } from "../../tools/tool.ts";
import { TOOL_KINDS } from "../../tools/tool_names.ts";

const EFFECT_KINDS: Record<ToolEffect, acp.ToolKind> = {
  read: "read",
  write: "edit",
  exec: "execute",
  network: "execute",
};

/** The kind of a call of `name`, or of its `effect` once known. */
export function toolKind(name: string, effect?: ToolEffect): acp.ToolKind {
  return TOOL_KINDS[name] ?? (effect ? EFFECT_KINDS[effect] : "other");
}

/** "read_file hello.txt": the tool and its one-line target. */
export function toolTitle(name: string, summary?: string): string {
  return summary ? `${name} ${summary}` : name;
}

/** Where a call points in the project: its `path` argument (and `offset`, a line), made absolute. */
export function toolLocations(root: string, args: unknown): acp.ToolCallLocation[] {
  if (typeof args !== "object" || args === null) return [];
  const { path, offset } = args as { path?: unknown; offset?: unknown };
  if (typeof path !== "string" || path === "") return [];
  const absolute = isAbsolute(path) ? path : join(root, path);
  return [{ path: absolute, ...(typeof offset === "number" && { line: offset }) }];
}

/** A preview as ACP tool-call content: a diff for a file change, the command for a command. */
export function previewContent(root: string, preview?: CallPreview): acp.ToolCallContent[] {
  if (!preview) return [];
  if (preview.kind === "command") return [text(`$ ${preview.command}`)];
  const path = join(root, preview.path);
  if (preview.kind === "write_blind") return [{ type: "diff", path, newText: preview.after }];
  return [{ type: "diff", path, oldText: preview.created ? null : preview.before, newText: preview.after }];
}

function text(value: string): acp.ToolCallContent {
  return { type: "content", content: { type: "text", text: value } };
}

/** A message or thought chunk of plain text. */
function chunk(kind: "agent_message_chunk" | "agent_thought_chunk", value: string): acp.SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text: value } };
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** One maker an event type: its updates (a type not named has none an editor has a place for). */
type UpdateMakers = {
  [T in AgentEvent["type"]]?: (event: Extract<AgentEvent, { type: T }>) => acp.SessionUpdate[];
};

/** Turns one prompt's events into updates; remembers each call's name and previews. */
export class UpdateMapper {
  readonly #root: string;
  readonly #previews = new Map<string, CallPreview>();
  /** Running sub-agents' agent names, by child id. */
  readonly #agents = new Map<string, string>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Keeps the preview the approval gate saw, so the call's updates carry its diff. */
  preview(id: string, preview?: CallPreview): acp.ToolCallUpdate & { toolCallId: string } {
    if (preview) this.#previews.set(id, preview);
    return { toolCallId: id, content: previewContent(this.#root, preview) };
  }

  /** The updates for `event` (none for the ones an editor has no place for). */
  map(event: AgentEvent): acp.SessionUpdate[] {
    const make = this.#makers[event.type] as ((event: AgentEvent) => acp.SessionUpdate[]) | undefined;
    return make?.(event) ?? [];
  }

  readonly #makers: UpdateMakers = {
    text_delta: (event) => [chunk("agent_message_chunk", event.text)],
    reasoning_delta: (event) => [chunk("agent_thought_chunk", event.text)],
    tool_call: (event) => [this.#toolCall(event)],
    tool_start: (event) => [{
      sessionUpdate: "tool_call_update",
      toolCallId: event.id,
      status: "in_progress",
      kind: toolKind(event.name, event.effect),
    }],
    tool_update: (event) => [{
      sessionUpdate: "tool_call_update",
      toolCallId: event.id,
      content: [text(event.tail.join("\n"))],
    }],
    tool_result: (event) => [this.#toolResult(event)],
    plan: (event) => [{
      sessionUpdate: "plan",
      entries: event.steps.map(({ step, status }) => ({
        content: step,
        priority: "medium",
        status: status === "done" ? "completed" : status,
      })),
    }],
    child_start: (event) => {
      this.#agents.set(event.childId, event.agent);
      return [];
    },
    child_event: (event) => this.#child(event.childId, event.event),
    notice: (event) => [chunk("agent_thought_chunk", `\n[${event.message}]\n`)],
  };

  /** A call as the model asked for it: pending, with its kind, title and where it points. */
  #toolCall(event: Extract<AgentEvent, { type: "tool_call" }>): acp.SessionUpdate {
    const rawInput = parse(event.arguments);
    return {
      sessionUpdate: "tool_call",
      toolCallId: event.id,
      title: toolTitle(event.name, event.summary),
      kind: toolKind(event.name),
      status: "pending",
      locations: toolLocations(this.#root, rawInput),
      rawInput,
    };
  }

  /** A result; a diff shown from the preview stands for the result's text, unless the call failed. */
  #toolResult(event: Extract<AgentEvent, { type: "tool_result" }>): acp.SessionUpdate {
    const preview = previewContent(this.#root, this.#previews.get(event.id));
    const shown = preview.some((item) => item.type === "diff") && !event.isError ? [] : [text(event.content)];
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: event.id,
      status: event.isError ? "failed" : "completed",
      content: [...preview, ...shown],
      rawOutput: { content: event.content, error_kind: event.errorKind, details: event.details },
    };
  }

  /**
   * A sub-agent's tool calls as tool calls of their own, tagged: the id is `CHILD_ID/CALL_ID` (a child's id is
   * its task call's), the title starts with the agent's name, and `_meta.tern.child_id` names the child. Its
   * text and thinking stay inside it: the task call's result carries its answer.
   */
  #child(childId: string, inner: AgentEvent): acp.SessionUpdate[] {
    if (inner.type !== "tool_call" && inner.type !== "tool_start" && inner.type !== "tool_result") return [];
    const _meta = { tern: { child_id: childId } };
    const tagged = this.map({ ...inner, id: `${childId}/${inner.id}` });
    return tagged.map((update) =>
      update.sessionUpdate === "tool_call"
        ? { ...update, title: `${this.#agents.get(childId) ?? "sub-agent"}: ${update.title}`, _meta }
        : { ...update, _meta }
    );
  }
}

/**
 * A saved conversation as the updates that show it again, as they streamed: what the user said, the
 * thinking kept with it, answers, and tool calls with their titles, locations and (for edits) their diffs.
 */
export function replayUpdates(root: string, entries: readonly Entry[]): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  const diffs = new Map<string, acp.ToolCallContent[]>();
  for (const entry of entries) {
    if (entry.kind === "user" && entry.from === undefined) {
      updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: entry.text } });
    } else if (entry.kind === "assistant") {
      const { content, reasoning, toolCalls } = entry.message;
      if (reasoning) {
        updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: reasoning } });
      }
      if (content !== "") {
        updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: content } });
      }
      for (const call of toolCalls ?? []) {
        const rawInput = parse(call.arguments);
        diffs.set(call.id, argumentDiffs(root, rawInput));
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: call.id,
          title: toolTitle(call.name, argumentSummary(rawInput)),
          kind: toolKind(call.name),
          status: "completed",
          locations: toolLocations(root, rawInput),
          rawInput,
        });
      }
    } else if (entry.kind === "tool_result") {
      const diff = entry.isError ? [] : diffs.get(entry.callId) ?? [];
      updates.push({
        sessionUpdate: "tool_call_update",
        toolCallId: entry.callId,
        status: entry.isError ? "failed" : "completed",
        content: diff.length > 0 ? diff : [text(entry.content)],
      });
    }
  }
  return updates;
}

/** A call's one-line target from its arguments, as tools summarise it live: a path, a command, a pattern. */
function argumentSummary(args: unknown): string | undefined {
  if (typeof args !== "object" || args === null) return undefined;
  const fields = args as Record<string, unknown>;
  for (const key of ["path", "command", "pattern", "url", "description"]) {
    if (typeof fields[key] === "string" && fields[key] !== "") return String(fields[key]).split("\n")[0];
  }
  return undefined;
}

/** The diffs an edit's or a write's arguments describe (the changed text, as the model sent it). */
function argumentDiffs(root: string, args: unknown): acp.ToolCallContent[] {
  if (typeof args !== "object" || args === null) return [];
  const fields = args as Record<string, unknown>;
  if (typeof fields.path !== "string") return [];
  const path = isAbsolute(fields.path) ? fields.path : join(root, fields.path);
  if (typeof fields.content === "string") return [{ type: "diff", path, newText: fields.content }];
  const edits = Array.isArray(fields.edits) ? fields.edits : [fields];
  return edits.flatMap((edit) => {
    const { old_text, new_text } = (edit ?? {}) as Record<string, unknown>;
    if (typeof old_text !== "string" || typeof new_text !== "string") return [];
    return [{ type: "diff" as const, path, oldText: old_text, newText: new_text }];
  });
}
