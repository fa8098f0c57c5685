/** Starting a conversation, new or resumed: its tools, its system prompt (with project memory), its session. */
import { Conversation } from "./log/conversation.ts";
import type { ProjectMemory } from "./project/memory.ts";
import { systemPrompt } from "./prompt.ts";
import type { LoadedSession, SessionMeta } from "./log/session_file.ts";
import { SessionWriter } from "./log/session_writer.ts";
import type { Skill } from "./project/skills.ts";
import { type BuiltinOptions, builtinTools } from "../tools/builtin.ts";
import { createFileTracker } from "../fs/file_tracker.ts";
import { createRegistry, type Registry } from "../tools/registry.ts";
import type { FileTracker, Tool } from "../tools/tool.ts";

/** A conversation, the tools built for it (they share its file tracker), and where it is saved. */
export interface Started {
  conversation: Conversation;
  registry: Registry;
  /** Absent with --no-session. */
  session?: SessionWriter;
}

/** What every conversation of a session shares. */
export interface StarterOptions {
  root: string;
  /** How commands run; `secrets` is read at each build, so a key added by a model switch is redacted too. */
  shell: BuiltinOptions["shell"];
  /** How web_fetch reaches the web. */
  web?: BuiltinOptions["web"];
  /** Whether the model now answering reads images (read_file returns them). */
  images?: BuiltinOptions["images"];
  /** Tools from outside (MCP servers), asked for at each start: a server that became ready later joins. */
  extraTools?: () => Tool[];
  /** The project's skills, listed in the system prompt. */
  skills?: readonly Skill[];
  memory: ProjectMemory | null;
  meta: () => SessionMeta;
  /** False with --no-session. */
  save: boolean;
  /** Told when the session file cannot be written any more. */
  onSaveError?: (message: string) => void;
  /** A sub-agent's: only these tools, and its own system prompt instead of tern's. */
  child?: { tools: ReadonlySet<string>; systemPrompt(tools: readonly Tool[]): string };
}

/** Starts conversations: `start()` a new one, `resume(loaded)` a saved one (same file, same id). */
export interface Starter {
  start(): Started;
  resume(loaded: LoadedSession): Started;
  /** The tools for `files` (a conversation's tracker), built afresh: after a model switch, with its key. */
  tools(files: FileTracker): Registry;
}

/** A starter for one session. */
export function conversationStarter(options: StarterOptions): Starter {
  const tools = (files: FileTracker) => {
    const shell = { ...options.shell, secrets: [...options.shell?.secrets ?? []] };
    const builtin = builtinTools({ files, shell, web: options.web, images: options.images });
    const all = [...builtin, ...options.extraTools?.() ?? []];
    const only = options.child?.tools;
    return createRegistry(only ? all.filter((tool) => only.has(tool.name)) : all);
  };
  const build = (loaded?: LoadedSession): Started => {
    const files = createFileTracker();
    for (const [real, snapshot] of loaded?.files ?? []) files.record(real, snapshot);
    const registry = tools(files);
    const prompt = options.child?.systemPrompt(registry.tools()) ??
      systemPrompt(options.root, registry.tools(), {
        memory: options.memory,
        skills: options.skills,
      });
    const added = loaded?.added ?? 0;
    const entries = loaded?.entries.slice(0, loaded.entries.length - added);
    const conversation = new Conversation({ systemPrompt: prompt, files, entries });
    if (!options.save) return { conversation, registry };
    const session = new SessionWriter(options.root, loaded ? { loaded } : { meta: options.meta() });
    if (options.onSaveError) session.onError = options.onSaveError;
    session.attach(conversation);
    // The interrupted results of a step cut short go through the log, so the file holds them from now on.
    for (const entry of loaded?.entries.slice(loaded.entries.length - added) ?? []) {
      conversation.append(entry);
    }
    return { conversation, registry, session };
  };
  return { start: () => build(), resume: (loaded) => build(loaded), tools };
}
