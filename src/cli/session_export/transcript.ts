/**
 * A saved session as a reader sees it, for the exports: the conversation (undone turns left out, as the
 * model saw it), reasoning, each tool call with its arguments, its result, and the change it asked for
 * (edit_file's replacements, write_file's content) as diff lines. Nothing here formats: md and html do.
 */
import type { Entry } from "../../agent/log/conversation.ts";
import type { LoadedSession } from "../../agent/log/session_file.ts";

/** One change a call asked for: the file, and its lines removed (`-`) and added (`+`). */
export interface ChangeLines {
  path: string;
  lines: { sign: "-" | "+"; text: string }[];
}

/** One tool call and what came of it. */
export interface CallBlock {
  name: string;
  /** The arguments as the model sent them, pretty-printed JSON (or the raw text when not JSON). */
  args: string;
  /** The result, when there is one. */
  result?: { content: string; isError: boolean };
  change?: ChangeLines;
}

/** One step of the transcript. */
export type Block =
  | { kind: "user"; text: string; images: number }
  | { kind: "assistant"; text: string; reasoning?: string; calls: CallBlock[] }
  | { kind: "summary"; text: string }
  | { kind: "note"; text: string };

/** The session's facts for a heading. */
export interface Transcript {
  id: string;
  name?: string;
  startedAt: string;
  model: string;
  provider: string;
  forkedFrom?: string;
  blocks: Block[];
}

/** The transcript of `loaded`. */
export function transcriptOf(loaded: LoadedSession): Transcript {
  const { header } = loaded;
  const results = new Map<string, Extract<Entry, { kind: "tool_result" }>>();
  for (const entry of loaded.entries) if (entry.kind === "tool_result") results.set(entry.callId, entry);
  const blocks: Block[] = [];
  for (const entry of liveEntries(loaded.entries)) {
    const block = blockOf(entry, results);
    if (block) blocks.push(block);
  }
  return {
    id: header.id,
    ...(loaded.name !== undefined && { name: loaded.name }),
    startedAt: String(header.startedAt),
    model: String(header.model),
    provider: String(header.provider),
    ...(typeof header.forkedFrom === "string" && { forkedFrom: header.forkedFrom }),
    blocks,
  };
}

/** The entries still part of the conversation: what a rewind (undo) took back is left out. */
function liveEntries(entries: readonly Entry[]): Entry[] {
  const gone = new Set<number>();
  entries.forEach((entry, i) => {
    if (entry.kind === "rewind") { for (let j = entry.to; j <= i; j++) gone.add(j); }
  });
  return entries.filter((_, i) => !gone.has(i));
}

function blockOf(
  entry: Entry,
  results: Map<string, Extract<Entry, { kind: "tool_result" }>>,
): Block | undefined {
  switch (entry.kind) {
    case "user":
      return entry.from === "tern"
        ? { kind: "note", text: `tern asked: ${entry.text}` }
        : { kind: "user", text: entry.text, images: entry.images?.length ?? 0 };
    case "assistant": {
      const { message } = entry;
      const calls = (message.toolCalls ?? []).map((call): CallBlock => {
        const result = results.get(call.id);
        const change = changeOf(call.name, call.arguments);
        return {
          name: call.name,
          args: prettyArgs(call.arguments),
          ...(result && { result: { content: result.content, isError: result.isError } }),
          ...(change && { change }),
        };
      });
      return {
        kind: "assistant",
        text: message.content,
        ...(message.reasoning && { reasoning: message.reasoning }),
        calls,
      };
    }
    case "summary":
      return { kind: "summary", text: entry.text };
    case "model_change":
      return { kind: "note", text: `From here on ${entry.model} (${entry.provider}) answers.` };
    case "notice":
      return { kind: "note", text: entry.text };
    default:
      return undefined; // tool results go with their calls; the rest is bookkeeping
  }
}

function prettyArgs(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** What an edit_file or write_file call asked to change, as diff lines; undefined for other calls. */
function changeOf(name: string, raw: string): ChangeLines | undefined {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof args?.path !== "string") return undefined;
  const lines: ChangeLines["lines"] = [];
  const add = (sign: "-" | "+", text: unknown) => {
    if (typeof text === "string") { for (const line of text.split("\n")) lines.push({ sign, text: line }); }
  };
  if (name === "write_file") add("+", args.content);
  else if (name === "edit_file") {
    const edits = Array.isArray(args.edits)
      ? args.edits
      : [{ old_text: args.old_text, new_text: args.new_text }];
    for (const edit of edits as Record<string, unknown>[]) {
      add("-", edit?.old_text);
      add("+", edit?.new_text);
    }
  } else return undefined;
  return lines.length === 0 ? undefined : { path: args.path, lines };
}
