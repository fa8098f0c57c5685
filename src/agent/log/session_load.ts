/**
 * Reading a session file back so a later run can continue it. A crash loses at most the line in flight:
 * loading ignores a torn last line and gives every tool call without a result an "interrupted" one, so the
 * resumed history is valid for every provider. Every line is checked (`_session_file_lines.ts`) and, read
 * from disk, must carry its seal.
 */
import { basename, join, relative } from "../../fs/path.ts";
import type { FileSnapshot } from "../../tools/tool.ts";
import type { Entry } from "./conversation.ts";
import { boundStatePath } from "../state/tern_dir.ts";
import { checkedEntry, checkedFile, isSessionId } from "./_session_file_lines.ts";
import { type StateSeal, stateSeal } from "../state/seal.ts";
import { NOT_SEALED, sessionLabel, unsealedRows } from "./_session_file_seal.ts";
import { cleanToolOutput } from "../policy/untrusted.ts";
import { checkedName } from "./session_names.ts";
import {
  INTERRUPTED_RESULT,
  type LoadedSession,
  MAX_SESSION_LINE_BYTES,
  SESSION_FORMAT,
  SessionError,
  type SessionHeader,
  SESSIONS_DIR,
} from "./session_file.ts";

/** Reads the session `id` of the project at `root`, repairing what a crash left behind. */
export async function loadSession(root: string, id: string): Promise<LoadedSession> {
  if (!isSessionId(id)) throw new SessionError(`'${id}' is not a session id; /sessions lists them`);
  const dir = boundStatePath(root, "sessions");
  const path = join(dir ?? join(root, SESSIONS_DIR), `${id}.jsonl`);
  let bytes: Uint8Array;
  try {
    if (dir === undefined || !Deno.lstatSync(path).isFile) throw new Error("not a session file");
    bytes = await Deno.readFile(path);
  } catch {
    throw new SessionError(`no session '${id}' in this project; tern --resume lists them`);
  }
  return parseSession(bytes, path, root, stateSeal(root));
}

/** The lines of a session file: text, or why a line cannot be read (too long, not UTF-8). */
function splitRows(data: string | Uint8Array): (string | { unreadable: string })[] {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const rows: (string | { unreadable: string })[] = [];
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(0x0a, start);
    const stop = newline < 0 ? bytes.length : newline;
    if (stop - start > MAX_SESSION_LINE_BYTES) rows.push({ unreadable: "over 8 MB" });
    else {
      try {
        rows.push(decoder.decode(bytes.subarray(start, stop)));
      } catch {
        rows.push({ unreadable: "not valid UTF-8" });
      }
    }
    start = stop + 1;
  }
  return rows;
}

/**
 * Parses a session file's bytes or text (see loadSession); every line is checked, bad ones are skipped. With
 * `seal` (as every file read from disk is), each line must carry its seal: a header without one is not a
 * session of this directory, a later line without one is skipped. Without, the lines are plain JSON.
 */
export function parseSession(
  data: string | Uint8Array,
  path: string,
  root: string,
  seal?: StateSeal,
): LoadedSession {
  const rows = unsealedRows(splitRows(data), seal, sessionLabel(basename(path, ".jsonl")));
  const first = rows[0];
  if (first !== undefined && typeof first !== "string" && first.unreadable === NOT_SEALED) {
    throw new SessionError(`${relative(root, path)} was not written by tern in this directory`);
  }
  const header = (typeof first === "string" ? parseLine(first) : undefined) as SessionHeader | undefined;
  if (header?.type !== "session" || !isSessionId(header.id)) {
    throw new SessionError(`${relative(root, path)} is not a tern session`);
  }
  if (header.version > SESSION_FORMAT) {
    throw new SessionError(`session ${header.id} was written by a newer tern (format ${header.version})`);
  }
  const repairs: string[] = [];
  const entries: Entry[] = [];
  const files = new Map<string, FileSnapshot>();
  let name: string | undefined;
  rows.slice(1).forEach((row, i) => {
    const number = i + 2;
    if (typeof row !== "string") return repairs.push(`skipped line ${number}: ${row.unreadable}`);
    const line = parseLine(row) as { type?: unknown; entry?: unknown; name?: unknown } | undefined;
    const named = line?.type === "name" ? checkedName(line.name) : undefined;
    if (named && "name" in named) return void (name = named.name);
    const entry = line?.type === "entry" ? checkedEntry(line.entry, entries.length) : undefined;
    const file = line?.type === "file" ? checkedFile(line) : undefined;
    if (entry) entries.push(cleaned(entry));
    else if (file) files.set(join(root, file.path), file.snapshot);
    else if (line === undefined && i === rows.length - 2) repairs.push("ignored a torn last line");
    else if (line === undefined) repairs.push(`skipped unreadable line ${number}`);
    else repairs.push(`skipped line ${number}: not a valid session entry`);
  });
  const { answered, added } = answerDanglingCalls(entries);
  if (answered > 0) repairs.push(`${answered} tool call(s) without a result marked interrupted`);
  return { header, path, entries, files: [...files], repairs, added, ...(name !== undefined && { name }) };
}

function parseLine(row: string | undefined): unknown {
  try {
    return row === undefined ? undefined : JSON.parse(row);
  } catch {
    return undefined;
  }
}

/**
 * Inserts an interrupted result after each tool call's group that lacks one. Returns how many, and how many
 * of them went at the very end (the usual case, a crash mid-step): those shift no entry's index.
 */
function answerDanglingCalls(entries: Entry[]): { answered: number; added: number } {
  const results = new Set<string>();
  for (const entry of entries) if (entry.kind === "tool_result") results.add(entry.callId);
  let answered = 0;
  let added = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.kind !== "assistant") continue;
    const missing = (entry.message.toolCalls ?? []).filter((call) => !results.has(call.id));
    if (missing.length === 0) continue;
    let at = i + 1;
    while (at < entries.length && ["tool_result", "reminder"].includes(entries[at].kind)) at++;
    const interrupted: Entry[] = missing.map((call) => ({
      kind: "tool_result",
      callId: call.id,
      name: call.name,
      content: INTERRUPTED_RESULT,
      isError: true,
    }));
    if (at === entries.length) added += missing.length;
    entries.splice(at, 0, ...interrupted);
    answered += missing.length;
  }
  return { answered, added };
}

/** A tool result as the model may read it: a file written by hand or by an older tern is cleaned on load too. */
function cleaned(entry: Entry): Entry {
  if (entry?.kind !== "tool_result" || typeof entry.content !== "string") return entry;
  return { ...entry, content: cleanToolOutput(entry.content).content };
}
