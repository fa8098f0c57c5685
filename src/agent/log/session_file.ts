/**
 * The session file's format: `.tern/local/sessions/<id>.jsonl`, a header line, then one line per log entry, per
 * file the model saw and per name given; what a loaded one holds; and session ids. Writing is
 * session_writer.ts, reading back session_load.ts, the list and pruning session_list.ts. Sessions are read
 * only from tern's own bound state folder; every line carries its seal (seal.ts: an HMAC keyed by this
 * directory's secret, bound to the file's id), checked on load: a file a `git pull` wrote there is never resumed.
 */
import { join } from "../../fs/path.ts";
import type { FileSnapshot } from "../../tools/tool.ts";
import type { Entry } from "./conversation.ts";
import { STATE_DIR } from "../state/tern_dir.ts";

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
export type SessionLine =
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
