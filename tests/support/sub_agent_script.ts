/**
 * Scripts for sub-agent runs on the fake model server: whose request a body is (the main session's or a
 * child's, by its system prompt), which job a child was given, and a barrier that holds requests until
 * several have arrived, which shows they were in flight at once.
 */

type Message = { role: string; content?: unknown; tool_calls?: unknown[] };

/** Who sent a chat request, and how many answers its conversation already holds. */
export interface RequestSender {
  child: boolean;
  /** A child's job (its first user message); "" for the main session. */
  job: string;
  /** Model answers already in the conversation: 0 for its first request. */
  turn: number;
  messages: Message[];
}

/** Reads a chat-wire request body. */
export function senderOf(body: Record<string, unknown>): RequestSender {
  const messages = body.messages as Message[];
  const system = String(messages[0]?.content ?? "");
  const child = system.startsWith("You are a sub-agent");
  const job = child ? String(messages.find((message) => message.role === "user")?.content ?? "") : "";
  const turn = messages.filter((message) => message.role === "assistant").length;
  return { child, job, turn, messages };
}

/** The names of the tools a request offered. */
export function toolNamesOf(body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as { function: { name: string } }[];
  return tools.map((tool) => tool.function.name).sort();
}

/**
 * A barrier for `count` arrivals: `arrive()` resolves once `count` callers have arrived. It rejects after
 * `timeoutMs` (a test that would otherwise hang: the requests never were in flight together).
 */
export function barrier(count: number, timeoutMs = 20_000): { arrive(): Promise<void> } {
  let arrived = 0;
  const all = Promise.withResolvers<void>();
  const timer = setTimeout(
    () => all.reject(new Error(`only ${arrived} of ${count} requests were in flight together`)),
    timeoutMs,
  );
  return {
    arrive: () => {
      if (++arrived === count) {
        clearTimeout(timer);
        all.resolve();
      }
      return all.promise;
    },
  };
}
