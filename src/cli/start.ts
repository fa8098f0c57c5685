/** Starting a conversation, new or resumed: its tools, its system prompt (with project memory), its session. */
import { Conversation } from "../agent/conversation.ts";
import type { ProjectMemory } from "../agent/memory.ts";
import { systemPrompt } from "../agent/prompt.ts";
import { type LoadedSession, type SessionMeta, SessionWriter } from "../agent/session.ts";
import { type BuiltinOptions, builtinTools } from "../tools/builtin.ts";
import { createFileTracker } from "../fs/file_tracker.ts";
import { createRegistry, type Registry } from "../tools/registry.ts";
import type { Tool } from "../tools/tool.ts";
import type { Skill } from "../agent/skills.ts";

/** A conversation, the tools built for it (they share its file tracker), and where it is saved. */
export interface Started {
  conversation: Conversation;
  registry: Registry;
  /** Absent with --no-session. */
  session?: SessionWriter;
}

/** What every conversation of this run shares. */
export interface StarterOptions {
  root: string;
  shell: BuiltinOptions["shell"];
  /** How web_fetch reaches the web. */
  web?: BuiltinOptions["web"];
  /** Tools from outside (MCP servers), asked for at each start: a server that became ready later joins. */
  extraTools?: () => Tool[];
  /** The project's skills, listed in the system prompt. */
  skills?: readonly Skill[];
  memory: ProjectMemory | null;
  meta: SessionMeta;
  /** False with --no-session. */
  save: boolean;
}

/** Starts conversations: `start()` a new one, `resume(loaded)` a saved one (same file, same id). */
export interface Starter {
  start(): Started;
  resume(loaded: LoadedSession): Started;
  /** The memory the system prompt carries. */
  readonly memory: ProjectMemory | null;
}

/** A starter for this run. */
export function conversationStarter(options: StarterOptions): Starter {
  const build = (loaded?: LoadedSession): Started => {
    const files = createFileTracker();
    for (const [real, snapshot] of loaded?.files ?? []) files.record(real, snapshot);
    const builtin = builtinTools({ files, shell: options.shell, web: options.web });
    const registry = createRegistry([...builtin, ...options.extraTools?.() ?? []]);
    const prompt = systemPrompt(options.root, registry.tools(), {
      memory: options.memory,
      skills: options.skills,
    });
    const added = loaded?.added ?? 0;
    const entries = loaded?.entries.slice(0, loaded.entries.length - added);
    const conversation = new Conversation({ systemPrompt: prompt, files, entries });
    if (!options.save) return { conversation, registry };
    const session = new SessionWriter(
      options.root,
      loaded ? { loaded } : { meta: options.meta },
    );
    session.onError = (message) => console.error(`tern: ${message}`);
    session.attach(conversation);
    // The interrupted results of a step cut short go through the log, so the file holds them from now on.
    for (const entry of loaded?.entries.slice(loaded.entries.length - added) ?? []) {
      conversation.append(entry);
    }
    return { conversation, registry, session };
  };
  return { start: () => build(), resume: (loaded) => build(loaded), memory: options.memory };
}
