/**
 * Saved sessions: a conversation written as it happens to `.tern/local/sessions/<id>.jsonl` (a header line,
 * then one line per log entry and per file the model saw), and read back so a later run can continue it.
 * A crash loses at most the line in flight: loading ignores a torn last line and gives every tool call
 * without a result an "interrupted" one, so the resumed history is valid for every provider. Sessions are
 * read only from tern's own bound state folder; every line carries its seal (state_seal.ts: an HMAC keyed by
 * this directory's secret, bound to the file's id), and is checked on load (`_session_lines.ts`): a file a
 * `git pull` wrote there is never resumed.
 */
import { basename, join, relative } from "node:path";
import type { FileSnapshot, FileTracker } from "../../tools/tool.ts";
import type { Conversation, Entry } from "./conversation.ts";
import { boundStatePath, STATE_DIR, stateDir } from "../state/tern_dir.ts";
import { checkedEntry, checkedFile, isSessionId } from "./_session_file_lines.ts";
import { sealLine, type StateSeal, stateSeal } from "../state/seal.ts";
import { NOT_SEALED, sessionLabel, unsealedRows } from "./_session_file_seal.ts";
import { cleanToolOutput } from "../policy/untrusted.ts";
import { checkedName } from "./session_names.ts";

/** The format version written in each header; a reader refuses newer ones. */
export const SESSION_FORMAT = 1;
/** Where sessions live, relative to the project root. */
export const SESSIONS_DIR = join(STATE_DIR, "sessions");
/** A session line longer than this (in bytes) is skipped on load, with a note. */
export const MAX_SESSION_LINE_BYTES = 8 * 1024 * 1024;
/** The result a tool call gets when the session ended before it had one. */
export const INTERRUPTED_RESULT =
  "[interrupted: tern stopped before this call finished; its effect is unknown]";

/** What a session records about the run that started it. */
export interface SessionMeta {
  tern: string;
  provider: string;
  model: string;
  api: string;
  /** Which front end started it: `tern -c` in the REPL continues the latest "repl" one. Absent in old files. */
  frontEnd?: "repl" | "headless";
}

/** The first line of a session file. */
export interface SessionHeader extends SessionMeta {
  type: "session";
  version: number;
  id: string;
  startedAt: string;
  /** The session this one was forked from (`tern -r ID --fork`, `/fork`). */
  forkedFrom?: string;
}

/** One line after the header. */
type Line =
  | { type: "entry"; entry: Entry }
  /** A file the model saw, relative to the root: the stale-write guard's memory. */
  | { type: "file"; path: string; snapshot: FileSnapshot }
  /** The session's name from here on (`/rename`); the last one wins. */
  | { type: "name"; name: string };

/** A session read back: its entries (repaired), the files seen, and what loading had to fix. */
export interface LoadedSession {
  header: SessionHeader;
  path: string;
  entries: Entry[];
  /** Real path → snapshot, ready for a new file tracker. */
  files: [string, FileSnapshot][];
  /** What was repaired, in words (a torn last line, interrupted calls). */
  repairs: string[];
  /** Its name (`/rename`), if it has one. */
  name?: string;
  /**
   * How many of `entries`, at the end, were added by the repair (interrupted results of the last step):
   * whoever continues the session appends them through the conversation, so the file holds them too.
   */
  added: number;
}

/** A tool result as the model may read it: a file written by hand or by an older tern is cleaned on load too. */
function cleaned(entry: Entry): Entry {
  if (entry?.kind !== "tool_result" || typeof entry.content !== "string") return entry;
  return { ...entry, content: cleanToolOutput(entry.content).content };
}

/** A problem with a session file or id, in words for the user. */
export class SessionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionError";
  }
}

/** A fresh session id: sortable by time, e.g. `20261130-180005-a1b2`. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const random = crypto.getRandomValues(new Uint8Array(2));
  return `${stamp}-${Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Writes a conversation to its session file as it grows. The file is created with the first entry (a run
 * that never gets a prompt leaves nothing behind); every line is written with one synchronous append.
 */
export class SessionWriter {
  readonly id: string;
  readonly #root: string;
  #header?: SessionHeader;
  /** The header, kept to write the file anew when something removed it (a command cleaned .tern/). */
  #headerLine?: string;
  #broken = false;
  /** Told once when the session cannot be written any more; the conversation goes on unsaved. */
  onError?: (message: string) => void;
  /**
   * Each file's snapshot as last written, and its JSON: an entry looks at every file the conversation has
   * seen, and the same snapshot object is passed over without serialising it again.
   */
  readonly #written = new Map<string, { snapshot: FileSnapshot; json: string }>();
  #path?: string;
  #seal?: StateSeal;
  #unsubscribe?: () => void;
  /** The name given with `rename`, written again if the file is written anew. */
  #name?: string;
  /** A name given before the file exists: written after the header. */
  #pendingName?: string;

  /** A writer for a new session (`meta` given) or for continuing a loaded one. */
  constructor(root: string, start: { meta: SessionMeta; id?: string } | { loaded: LoadedSession }) {
    this.#root = root;
    if ("loaded" in start) {
      this.id = start.loaded.header.id;
      this.#path = start.loaded.path;
      this.#headerLine = JSON.stringify(start.loaded.header);
      this.#name = start.loaded.name;
      for (const [real, snapshot] of start.loaded.files) {
        this.#written.set(real, { snapshot, json: JSON.stringify(snapshot) });
      }
    } else {
      this.id = start.id ?? newSessionId();
      this.#header = {
        type: "session",
        version: SESSION_FORMAT,
        id: this.id,
        startedAt: new Date().toISOString(),
        ...start.meta,
      };
    }
  }

  /** The session file's path once it exists. */
  get path(): string | undefined {
    return this.#path;
  }

  /** Names the session from now on; the file is created with the first entry, so the name may wait for it. */
  rename(name: string): void {
    this.#name = name;
    if (this.#path === undefined) {
      this.#pendingName = name;
      return;
    }
    const line = JSON.stringify({ type: "name", name } satisfies Line);
    Deno.writeTextFileSync(this.#path, this.#sealed([line]), { append: true });
  }

  /** Appends every later entry of `conversation` (and the files it has seen) to the session file. */
  attach(conversation: Conversation): void {
    this.#unsubscribe = conversation.subscribe((entry) => this.#save(entry, conversation));
  }

  /** Writes the entry; when the file vanished, writes it anew from the whole log; never throws. */
  #save(entry: Entry, conversation: Conversation): void {
    if (this.#broken) return;
    try {
      this.#write(entry, conversation.files);
    } catch {
      try {
        this.#rewrite(conversation);
      } catch (error) {
        this.#broken = true;
        const why = error instanceof Error ? error.message : String(error);
        this.onError?.(`the session can no longer be saved (${why}); this conversation goes on unsaved`);
      }
    }
  }

  /** The whole session again: header, every file seen, every entry. */
  #rewrite(conversation: Conversation): void {
    this.#path = join(stateDir(this.#root, "sessions"), `${this.id}.jsonl`);
    this.#seal = undefined; // the state folder may be a new one, with a new key
    const lines: Line[] = [];
    for (const [real, snapshot] of conversation.files.entries()) {
      lines.push({ type: "file", path: relative(this.#root, real), snapshot });
    }
    for (const entry of conversation.entries) lines.push({ type: "entry", entry: withoutDetails(entry) });
    if (this.#name !== undefined) lines.push({ type: "name", name: this.#name });
    const header = this.#headerLine === undefined ? [] : [this.#headerLine];
    Deno.writeTextFileSync(
      this.#path,
      this.#sealed([...header, ...lines.map((line) => JSON.stringify(line))]),
    );
  }

  /** Stops writing. */
  detach(): void {
    this.#unsubscribe?.();
  }

  #write(entry: Entry, files: FileTracker): void {
    const lines: Line[] = [];
    for (const [real, snapshot] of files.entries()) {
      const last = this.#written.get(real);
      if (last?.snapshot === snapshot) continue;
      const json = JSON.stringify(snapshot);
      this.#written.set(real, { snapshot, json });
      if (last?.json === json) continue;
      lines.push({ type: "file", path: relative(this.#root, real), snapshot });
    }
    lines.push({ type: "entry", entry: withoutDetails(entry) });
    if (this.#pendingName !== undefined) lines.push({ type: "name", name: this.#pendingName });
    this.#pendingName = undefined;
    this.#path ??= join(stateDir(this.#root, "sessions"), `${this.id}.jsonl`);
    if (this.#header) this.#headerLine = JSON.stringify(this.#header);
    const header = this.#header ? [this.#headerLine!] : [];
    const text = this.#sealed([...header, ...lines.map((line) => JSON.stringify(line))]);
    Deno.writeTextFileSync(this.#path, text, { append: true });
    this.#header = undefined;
  }

  /** The lines as written: each with its seal, one a line. */
  #sealed(bodies: string[]): string {
    this.#seal ??= stateSeal(this.#root);
    if (this.#seal === undefined) throw new Error("tern's state folder has no key");
    const label = sessionLabel(this.id);
    return bodies.map((body) => sealLine(this.#seal!, label, body) + "\n").join("");
  }
}

/** Tool details are for the screen of the moment (diffs, timings); the model's content is what must last. */
function withoutDetails(entry: Entry): Entry {
  if (entry.kind !== "tool_result" || entry.details === undefined) return entry;
  const { details: _details, ...rest } = entry;
  return rest;
}

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

/** One line of the session list. */
export interface SessionSummary {
  id: string;
  /** Last write (ms since epoch). */
  modifiedMs: number;
  startedAt: string;
  model: string;
  /** Which front end started it, when the file says. */
  frontEnd?: "repl" | "headless";
  /** User prompts so far. */
  turns: number;
  firstPrompt: string;
  bytes: number;
  /** Its name (`/rename`), if it has one. */
  name?: string;
}

/** The project's sessions, newest activity first. */
export async function listSessions(root: string): Promise<SessionSummary[]> {
  const dir = boundStatePath(root, "sessions");
  const seal = stateSeal(root);
  const out: SessionSummary[] = [];
  if (dir === undefined || seal === undefined) return out;
  try {
    for await (const item of Deno.readDir(dir)) {
      const id = item.name.slice(0, -".jsonl".length);
      if (!item.isFile || !item.name.endsWith(".jsonl") || !isSessionId(id)) continue;
      const path = join(dir, item.name);
      const info = await Deno.lstat(path);
      try {
        const loaded = parseSession(await Deno.readFile(path), path, root, seal);
        // The file's name is the session's id; a header naming another id is not this file's session.
        if (loaded.header.id !== id) continue;
        const prompts = loaded.entries.filter((entry) => entry.kind === "user" && entry.from !== "tern");
        const first = prompts[0];
        out.push({
          id,
          modifiedMs: info.mtime?.getTime() ?? 0,
          startedAt: loaded.header.startedAt,
          model: loaded.header.model,
          ...(loaded.header.frontEnd && { frontEnd: loaded.header.frontEnd }),
          turns: prompts.length,
          firstPrompt: first?.kind === "user" ? first.text : "",
          bytes: info.size,
          ...(loaded.name !== undefined && { name: loaded.name }),
        });
      } catch {
        // Not a session (or not readable): it is not listed, and never deleted by prune.
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort((a, b) => b.modifiedMs - a.modifiedMs || b.id.localeCompare(a.id));
}

/** Removes sessions beyond the `keep` newest and any older than `maxAgeDays`; returns the ids removed. */
export async function pruneSessions(
  root: string,
  options: { keep?: number; maxAgeDays?: number; now?: number },
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  const sessions = await listSessions(root);
  for (const [i, session] of sessions.entries()) {
    const old = options.maxAgeDays !== undefined &&
      now - session.modifiedMs > options.maxAgeDays * 86_400_000;
    if (i < (options.keep ?? Infinity) && !old) continue;
    // Listed ids are names read from the folder itself (and checked): never a path built from file contents.
    await Deno.remove(join(root, SESSIONS_DIR, `${session.id}.jsonl`));
    removed.push(session.id);
  }
  return removed;
}

/** One line for a list or a picker: age, REPL or `-p`, prompts, the first prompt, model, id. */
export function describeSession(session: SessionSummary, now = Date.now()): string {
  const prompt = session.firstPrompt.replace(/\s+/g, " ").trim();
  const shown = prompt === ""
    ? "(no prompt)"
    : `"${prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt}"`;
  const kind = session.frontEnd === "headless" ? "-p" : session.frontEnd === "repl" ? "REPL" : "?";
  const prompts = `${session.turns} prompt${session.turns === 1 ? "" : "s"}`;
  const name = session.name === undefined ? "" : `[${session.name}] `;
  return `${
    age(now - session.modifiedMs)
  } · ${kind} · ${prompts} · ${name}${shown} · ${session.model} · ${session.id}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
function age(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}
