/** What the state tests share: a session tern itself wrote in a project. */
import { Conversation } from "../../../src/agent/log/conversation.ts";
import { SessionWriter } from "../../../src/agent/log/session_writer.ts";

export const META = { tern: "test", provider: "deepseek", model: "m", api: "chat" };

/** A session tern wrote here, with one prompt; returns its id. */
export function ownSession(root: string, text: string): string {
  const conversation = new Conversation({ systemPrompt: "s" });
  const writer = new SessionWriter(root, { meta: META });
  writer.attach(conversation);
  conversation.append({ kind: "user", text });
  return writer.id;
}
