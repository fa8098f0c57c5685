/**
 * The conversation an `AgentSession` holds now, and its replacement by a new one (`/clear`) or a saved one
 * (`/resume`, `/fork`): its tools, its session file, and the project memory its system prompt carries.
 */
import {
  conversationStarter,
  type Started,
  type Starter,
  type StarterOptions,
} from "../conversation_start.ts";
import type { Entry } from "../log/conversation.ts";
import type { LoadedSession } from "../log/session_file.ts";
import type { ProjectMemory } from "../project/memory.ts";

/** One conversation at a time, started, resumed or replaced here only. */
export class ConversationSlot {
  readonly #starter: Starter;
  /** The memory new conversations get (changed by `reloadMemory`), and what the current one carries. */
  readonly #memory: { next: ProjectMemory | null; carried: ProjectMemory | null };
  #current: Started;

  /** Starts the first conversation: `resume` continues a saved one, else a new one begins. */
  constructor(options: Omit<StarterOptions, "memory">, memory: ProjectMemory | null, resume?: LoadedSession) {
    const held = this.#memory = { next: memory, carried: memory };
    this.#starter = conversationStarter({
      ...options,
      get memory() { // read at each new conversation: after `reloadMemory`, the new file
        return held.next;
      },
    });
    this.#current = resume ? this.#starter.resume(resume) : this.#starter.start();
  }

  /** The conversation now, with its tools and session file. */
  get now(): Started {
    return this.#current;
  }

  /** The memory the current conversation's system prompt carries. */
  get memory(): ProjectMemory | null {
    return this.#memory.carried;
  }

  /** The memory the next new conversation carries (the file read again). */
  set nextMemory(memory: ProjectMemory | null) {
    this.#memory.next = memory;
  }

  /** The session file's id; absent with --no-session. */
  get sessionId(): string | undefined {
    return this.#current.session?.id;
  }

  /** The session file's path once it exists (from the first entry on). */
  get transcriptPath(): string | undefined {
    return this.#current.session?.path;
  }

  /** The log so far (read-only). */
  get entries(): readonly Entry[] {
    return this.#current.conversation.entries;
  }

  /** The entries still in the conversation: undone turns and summarised ones left out. */
  liveEntries(): Entry[] {
    const { conversation } = this.#current;
    return conversation.live().indices.map((i) => conversation.entries[i]);
  }

  /** What this conversation's "don't ask again" answers cover (`/permissions` lists them). */
  get approvals(): string[] {
    return this.#current.conversation.approvals.list();
  }

  /** Every tool the conversation has, by name, sorted. */
  toolNames(): string[] {
    return this.#current.registry.tools().map((tool) => tool.name);
  }

  /** The tools the model is offered now, by name (a tool whose `offered()` says false is left out). */
  offeredToolNames(): string[] {
    return this.#current.registry.specs().map((tool) => tool.name);
  }

  /** Names the session file (`/rename`); throws when the session is not saved (--no-session). */
  rename(name: string): void {
    const writer = this.#current.session;
    if (!writer) throw new Error("the session is not saved (--no-session)");
    writer.rename(name);
  }

  /** Starts a new conversation (and session file) in place of this one. */
  startNew(): void {
    this.#replace(this.#starter.start());
  }

  /** Continues `loaded` in place of this conversation (same file, same id). */
  resume(loaded: LoadedSession): void {
    this.#replace(this.#starter.resume(loaded));
  }

  /** Builds the tools afresh for the same conversation: after a model switch, or when MCP servers joined. */
  rebuildTools(): void {
    this.#current.registry = this.#starter.tools(this.#current.conversation.files);
  }

  #replace(next: Started): void {
    this.#memory.carried = this.#memory.next;
    this.#current.session?.detach();
    this.#current = next;
  }
}
