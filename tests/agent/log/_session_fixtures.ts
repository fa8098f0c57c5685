/** What the session-file tests share: a header's meta, a step that calls two tools, and a recorded session. */
import { Conversation, type Entry } from "../../../src/agent/log/conversation.ts";
import { SessionWriter } from "../../../src/agent/log/session_writer.ts";

/** A header's meta, as a run writes it. */
export const META = { tern: "0.1.0", provider: "deepseek", model: "fake-model", api: "chat" };

/** A step that calls two tools (results not yet in). */
export const CALL_STEP: Entry = {
  kind: "assistant",
  message: {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "c1", name: "read_file", arguments: '{"path":"a.txt"}' },
      { id: "c2", name: "execute_command", arguments: '{"command":"sleep 100"}' },
    ],
  },
};

/** A conversation of `entries` written by a new SessionWriter under `root`. */
export function record(
  root: string,
  entries: Entry[],
): { conversation: Conversation; writer: SessionWriter } {
  const conversation = new Conversation({ systemPrompt: "s" });
  const writer = new SessionWriter(root, { meta: META });
  writer.attach(conversation);
  for (const entry of entries) conversation.append(entry);
  return { conversation, writer };
}
