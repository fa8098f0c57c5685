/**
 * tern's events as ACP `session/update`s: message and thought chunks, tool calls with kind, title, locations
 * and status, their content (diffs for edits, the output of commands), and a saved conversation replayed
 * for `session/load`.
 */
import { isAbsolute, join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../../agent/events.ts";
import type { Entry } from "../../agent/conversation.ts";
import type { CallPreview, ToolEffect } from "../../tools/tool.ts";

/** The kind an editor shows for each built-in tool; other tools (MCP) get one from their effect. */
const KINDS: Record<string, acp.ToolKind> = {
  read_file: "read",
  list_dir: "read",
  glob_files: "search",
  grep_code: "search",
  write_file: "edit",
  edit_file: "edit",
  execute_command: "execute",
  web_fetch: "fetch",
  web_search: "search",
};

const EFFECT_KINDS: Record<ToolEffect, acp.ToolKind> = {
  read: "read",
  write: "edit",
  exec: "execute",
  network: "execute",
};

/** The kind of a call of `name`, or of its `effect` once known. */
export function toolKind(name: string, effect?: ToolEffect): acp.ToolKind {
  return KINDS[name] ?? (effect ? EFFECT_KINDS[effect] : "other");
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

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

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
    switch (event.type) {
      case "text_delta":
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } }];
      case "reasoning_delta":
        return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } }];
      case "tool_call": {
        const rawInput = parse(event.arguments);
        return [{
          sessionUpdate: "tool_call",
          toolCallId: event.id,
          title: toolTitle(event.name, event.summary),
          kind: toolKind(event.name),
          status: "pending",
          locations: toolLocations(this.#root, rawInput),
          rawInput,
        }];
      }
      case "tool_start":
        return [{
          sessionUpdate: "tool_call_update",
          toolCallId: event.id,
          status: "in_progress",
          kind: toolKind(event.name, event.effect),
        }];
      case "tool_update":
        return [{
          sessionUpdate: "tool_call_update",
          toolCallId: event.id,
          content: [text(event.tail.join("\n"))],
        }];
      case "tool_result": {
        const preview = previewContent(this.#root, this.#previews.get(event.id));
        const shown = preview.some((item) => item.type === "diff") && !event.isError
          ? []
          : [text(event.content)];
        return [{
          sessionUpdate: "tool_call_update",
          toolCallId: event.id,
          status: event.isError ? "failed" : "completed",
          content: [...preview, ...shown],
          rawOutput: { content: event.content, error_kind: event.errorKind, details: event.details },
        }];
      }
      case "plan":
        return [{
          sessionUpdate: "plan",
          entries: event.steps.map(({ step, status }) => ({
            content: step,
            priority: "medium",
            status: status === "done" ? "completed" : status,
          })),
        }];
      case "child_start":
        this.#agents.set(event.childId, event.agent);
        return [];
      case "child_event":
        return this.#child(event.childId, event.event);
      case "notice":
        return [{
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: `\n[${event.message}]\n` },
        }];
      default:
        return [];
    }
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

/** A saved conversation as the updates that show it again: what the user said, answers, and tool calls. */
export function replayUpdates(root: string, entries: readonly Entry[]): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  for (const entry of entries) {
    if (entry.kind === "user" && entry.from === undefined) {
      updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: entry.text } });
    } else if (entry.kind === "assistant") {
      const { content, toolCalls } = entry.message;
      if (content !== "") {
        updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: content } });
      }
      for (const call of toolCalls ?? []) {
        const rawInput = parse(call.arguments);
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: call.id,
          title: call.name,
          kind: toolKind(call.name),
          status: "completed",
          locations: toolLocations(root, rawInput),
          rawInput,
        });
      }
    } else if (entry.kind === "tool_result") {
      updates.push({
        sessionUpdate: "tool_call_update",
        toolCallId: entry.callId,
        status: entry.isError ? "failed" : "completed",
        content: [text(entry.content)],
      });
    }
  }
  return updates;
}
