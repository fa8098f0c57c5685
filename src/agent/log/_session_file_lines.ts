/**
 * The lines of a session file, checked one by one on load. A session file is read back into the model's
 * history, so each line is rebuilt field by field from what its kind allows: a line claiming a role the log
 * has no kind for (`role: "system"`), an unknown kind, or a field of the wrong type is skipped, never sent.
 */
import { isAbsolute, posix } from "../../fs/path.ts";
import type { FileSnapshot } from "../../fs/file_tracker.ts";
import type { ImageMediaType, ImagePart, ToolCall, Usage, WireApi } from "../../llm/types.ts";
import type { CutOutput } from "./compact.ts";
import type { AssistantMessage, Entry } from "./conversation.ts";

const WIRES: readonly WireApi[] = ["chat", "responses", "anthropic"];

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === "string";
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

const MEDIA_TYPES: readonly ImageMediaType[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Images as saved: a known media type, base64 data and a name; undefined when any is off. */
function images(value: unknown): ImagePart[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const parts = value.map((part) =>
    isObject(part) && MEDIA_TYPES.includes(part.mediaType as ImageMediaType) && isString(part.data) &&
      /^[A-Za-z0-9+/=]*$/.test(part.data) && isString(part.name)
      ? { mediaType: part.mediaType as ImageMediaType, data: part.data, name: part.name }
      : undefined
  );
  return parts.some((part) => part === undefined) ? undefined : parts as ImagePart[];
}

/** A model call's tokens as saved; undefined unless every count is a whole number. */
function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value) || ![value.promptTokens, value.completionTokens, value.totalTokens].every(isCount)) {
    return undefined;
  }
  const usage: Usage = {
    promptTokens: value.promptTokens as number,
    completionTokens: value.completionTokens as number,
    totalTokens: value.totalTokens as number,
  };
  if (isCount(value.cachedTokens)) usage.cachedTokens = value.cachedTokens;
  if (isCount(value.reasoningTokens)) usage.reasoningTokens = value.reasoningTokens;
  return usage;
}

/** Cut outputs of a compaction entry; undefined when one is malformed. */
function cutOutputs(value: unknown): CutOutput[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const cuts = value.map((cut) => {
    if (!isObject(cut) || !isString(cut.callId) || !isCount(cut.keepChars)) return undefined;
    if (cut.savedAs !== undefined && !isString(cut.savedAs)) return undefined;
    const out: CutOutput = { callId: cut.callId, keepChars: cut.keepChars };
    if (isString(cut.savedAs)) out.savedAs = cut.savedAs;
    if (cut.exact === true) out.exact = true;
    return out;
  });
  return cuts.some((cut) => cut === undefined) ? undefined : cuts as CutOutput[];
}

/** An index into the log that points at or before entry `at`. */
function isIndex(value: unknown, at: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= at;
}

function toolCall(value: unknown): ToolCall | undefined {
  if (!isObject(value) || !isString(value.id) || !isString(value.name) || !isString(value.arguments)) {
    return undefined;
  }
  return { id: value.id, name: value.name, arguments: value.arguments };
}

function assistant(value: unknown): AssistantMessage | undefined {
  if (!isObject(value) || value.role !== "assistant" || !isString(value.content)) return undefined;
  const message: AssistantMessage = { role: "assistant", content: value.content };
  if (value.reasoning !== undefined) {
    if (!isString(value.reasoning)) return undefined;
    message.reasoning = value.reasoning;
  }
  if (value.toolCalls !== undefined) {
    if (!Array.isArray(value.toolCalls)) return undefined;
    const calls = value.toolCalls.map(toolCall);
    if (calls.some((call) => call === undefined)) return undefined;
    message.toolCalls = calls as ToolCall[];
  }
  if (value.providerData !== undefined) {
    const data = value.providerData;
    if (!isObject(data) || !WIRES.includes(data.api as WireApi)) return undefined;
    message.providerData = { ...data, api: data.api as WireApi };
  }
  return message;
}

/** A user prompt: its text, who sent it (tern itself, for a reminder it wrote), the images attached. */
function userEntry(v: Fields): Entry | undefined {
  if (!isString(v.text) || (v.from !== undefined && v.from !== "tern")) return undefined;
  const attached = v.images === undefined ? undefined : images(v.images);
  if (v.images !== undefined && attached === undefined) return undefined;
  return {
    kind: "user",
    text: v.text,
    ...v.from === "tern" && { from: "tern" as const },
    ...attached && { images: attached },
  };
}

/** A tool's result as the model read it, with its error kind and the images it returned. */
function toolResultEntry(v: Fields): Entry | undefined {
  const ok = isString(v.callId) && isString(v.name) && isString(v.content) && typeof v.isError === "boolean";
  if (!ok || (v.errorKind !== undefined && !/^[a-z_]{1,40}$/.test(String(v.errorKind)))) return undefined;
  const entry: Extract<Entry, { kind: "tool_result" }> = {
    kind: "tool_result",
    callId: v.callId as string,
    name: v.name as string,
    content: v.content as string,
    isError: v.isError as boolean,
  };
  if (v.errorKind !== undefined) entry.errorKind = v.errorKind as typeof entry.errorKind;
  if (v.images !== undefined) {
    const returned = images(v.images);
    if (returned === undefined) return undefined;
    entry.images = returned;
  }
  return entry;
}

/** What a compaction dropped, abbreviated and cut. */
function compactionEntry(v: Fields): Entry | undefined {
  if (!isStrings(v.droppedOutputs) || !isStrings(v.abbreviatedCalls)) return undefined;
  const cuts = v.cutOutputs === undefined ? undefined : cutOutputs(v.cutOutputs);
  if (v.cutOutputs !== undefined && cuts === undefined) return undefined;
  return {
    kind: "compaction",
    droppedOutputs: v.droppedOutputs,
    abbreviatedCalls: v.abbreviatedCalls,
    ...cuts && { cutOutputs: cuts },
  };
}

/** A move to another model, on a wire tern knows. */
function modelChangeEntry(v: Fields): Entry | undefined {
  const ok = [v.provider, v.model, v.endpoint].every(isString) && WIRES.includes(v.api as WireApi);
  if (!ok) return undefined;
  const [provider, model, endpoint, api] = [v.provider, v.model, v.endpoint, v.api] as string[];
  return { kind: "model_change", provider, model, endpoint, api };
}

/** Each kind's check: the entry rebuilt from the fields it allows, or undefined. `at`: see `checkedEntry`. */
const ENTRY_CHECKS: { [K in Entry["kind"]]: (v: Fields, at: number) => Entry | undefined } = {
  user: userEntry,
  assistant: (v) => {
    const message = assistant(v.message);
    return message && { kind: "assistant", message };
  },
  tool_result: toolResultEntry,
  reminder: (v) =>
    isString(v.callId) && isString(v.text) ? { kind: "reminder", callId: v.callId, text: v.text } : undefined,
  compaction: compactionEntry,
  usage: (v) => {
    const usage = usageOf(v.usage);
    return usage && isString(v.model) ? { kind: "usage", usage, model: v.model } : undefined;
  },
  notice: (v) => isString(v.text) ? { kind: "notice", text: v.text } : undefined,
  summary: (v, at) =>
    isString(v.text) && isIndex(v.replaces, at)
      ? { kind: "summary", text: v.text, replaces: v.replaces }
      : undefined,
  rewind: (v, at) => isIndex(v.to, at) ? { kind: "rewind", to: v.to } : undefined,
  snapshot: (v) =>
    isString(v.tree) && /^[0-9a-f]{40,64}$/.test(v.tree) ? { kind: "snapshot", tree: v.tree } : undefined,
  model_change: modelChangeEntry,
};

/**
 * The entry a session line holds, rebuilt with only the fields its kind has; undefined when it is not a
 * well-formed entry. `at` is the index it would take in the log (a rewind or summary points before it).
 */
export function checkedEntry(value: unknown, at: number): Entry | undefined {
  if (!isObject(value) || !isString(value.kind) || !Object.hasOwn(ENTRY_CHECKS, value.kind)) return undefined;
  return ENTRY_CHECKS[value.kind as Entry["kind"]](value, at);
}

/** A `file` line's path (relative, inside the root) and snapshot; undefined when either is malformed. */
export function checkedFile(value: Fields): { path: string; snapshot: FileSnapshot } | undefined {
  const { path, snapshot } = value;
  if (!isString(path) || path === "" || path.includes("\0") || isAbsolute(path)) return undefined;
  const normal = posix.normalize(path);
  if (normal === ".." || normal.startsWith("../")) return undefined;
  if (!isObject(snapshot)) return undefined;
  const { mtimeMs, size, hash } = snapshot;
  if (typeof mtimeMs !== "number" || !Number.isSafeInteger(size) || !isString(hash)) return undefined;
  if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
  return { path: normal, snapshot: { mtimeMs, size: size as number, hash } };
}

/** The header's id when it is a plain session id (it names a file: no separators, no dots first). */
export function isSessionId(id: unknown): id is string {
  return isString(id) && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(id);
}
