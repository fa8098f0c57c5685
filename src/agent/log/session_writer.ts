/**
 * Writing a session file as the conversation grows: created with the first entry, each line sealed and written
 * with one synchronous append; written anew from the whole log when the file vanished.
 */
import { join, relative } from "../../fs/path.ts";
import type { FileSnapshot, FileTracker } from "../../tools/tool.ts";
import type { Conversation, Entry } from "./conversation.ts";
import { stateDir } from "../state/tern_dir.ts";
import { sealLine, type StateSeal, stateSeal } from "../state/seal.ts";
import { sessionLabel } from "./_session_file_seal.ts";
import { endsLine } from "../../fs/line_end.ts";
import {
  type LoadedSession,
  newSessionId,
  SESSION_FORMAT,
  type SessionHeader,
  type SessionLine as Line,
  type SessionMeta,
} from "./session_file.ts";

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
  /** A loaded file may end in a torn line (a tern killed mid-write): the first append ends it first. */
  #mayBeTorn = false;

  /** A writer for a new session (`meta` given) or for continuing a loaded one. */
  constructor(root: string, start: { meta: SessionMeta; id?: string } | { loaded: LoadedSession }) {
    this.#root = root;
    if ("loaded" in start) {
      this.id = start.loaded.header.id;
      this.#path = start.loaded.path;
      this.#headerLine = JSON.stringify(start.loaded.header);
      this.#name = start.loaded.name;
      this.#mayBeTorn = true;
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
    this.#append(this.#path, this.#sealed([line]));
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
    this.#append(this.#path, text);
    this.#header = undefined;
  }

  /**
   * Appends `text` to the file at `path`. Once, for a loaded file, a last line without its newline is ended
   * first: appended onto it, the next line would be lost with it at the next load.
   */
  #append(path: string, text: string): void {
    if (this.#mayBeTorn) {
      this.#mayBeTorn = false;
      if (!endsLine(path)) text = `\n${text}`;
    }
    Deno.writeTextFileSync(path, text, { append: true });
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
